//! Action indices and texts at the boundary: an index from the caller checked into an
//! engine action, and an action's text. The game and the efficiency helpers both use
//! them.

use engine::game::Action;

use crate::result::Error;
use crate::MJ_NUM_ACTIONS;

/// The action with index `index`, or `MJ_INVALID_ARGUMENT`.
pub(crate) fn action_from(index: u16) -> Result<Action, Error> {
    Action::from_index(index as usize).ok_or_else(|| {
        Error::invalid(format!(
            "action index {index} is not below MJ_NUM_ACTIONS ({MJ_NUM_ACTIONS})"
        ))
    })
}

/// The text of an action: `"discard 5p"`, `"tsumo"`, `"closed kan 1z"`,
/// `"added kan 9s"`, `"chi 345m"`, `"ron"`, `"pon"`, `"open kan"`, `"pass"`.
pub(crate) fn action_text(a: Action) -> String {
    match a {
        Action::Discard(t) => format!("discard {t}"),
        Action::Tsumo => "tsumo".to_string(),
        Action::ClosedKan(t) => format!("closed kan {t}"),
        Action::AddedKan(t) => format!("added kan {t}"),
        Action::Chi(t) => format!(
            "chi {}{}{}{}",
            t.number(),
            t.number() + 1,
            t.number() + 2,
            t.suit().letter()
        ),
        Action::Ron => "ron".to_string(),
        Action::Pon => "pon".to_string(),
        Action::OpenKan => "open kan".to_string(),
        Action::Pass => "pass".to_string(),
        Action::Riichi(_) | Action::Kita | Action::NineTerminals => a.to_string(),
    }
}
