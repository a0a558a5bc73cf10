//! Closed choices shared by several subcommands, as clap `ValueEnum`s: `--help` lists
//! their values and a misspelling (`--rules Sanma`) is refused with the valid ones and
//! a suggestion. The spellings are also those of `config.json` and of the sidecar.

use clap::ValueEnum;
use serde::{Deserialize, Serialize};

/// A rules preset (`engine::Rules::preset`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RulesArg {
    /// Three players, no 2m–8m, no chi.
    #[value(alias = "3p")]
    Sanma,
    /// Four players, the full tile set.
    #[value(alias = "4p", alias = "yonma", alias = "four_player")]
    FourPlayer,
    /// Tenhou three-player riichi, hanchan (red 5p/5s, kita, tsumo loss, 35 000 start).
    TenhouSanma,
    /// Tenhou four-player riichi, hanchan (red fives, chi, 25 000 start).
    #[value(name = "tenhou-4p")]
    #[serde(rename = "tenhou-4p")]
    Tenhou4p,
    /// Tenhou three-player riichi, east-only.
    TenhouSanmaEast,
    /// Tenhou four-player riichi, east-only.
    #[value(name = "tenhou-4p-east")]
    #[serde(rename = "tenhou-4p-east")]
    Tenhou4pEast,
    /// Mahjong Soul three-player ranked, hanchan (Tenhou sanma with double yakuman,
    /// kokushi robbing a closed kan, pao per yakuman).
    MajsoulSanma,
    /// Mahjong Soul four-player ranked, hanchan (Tenhou 4p with double yakuman, kokushi
    /// robbing a closed kan, no triple-ron abort, pao per yakuman).
    #[value(name = "majsoul-4p")]
    #[serde(rename = "majsoul-4p")]
    Majsoul4p,
    /// Mahjong Soul three-player ranked, east-only.
    MajsoulSanmaEast,
    /// Mahjong Soul four-player ranked, east-only.
    #[value(name = "majsoul-4p-east")]
    #[serde(rename = "majsoul-4p-east")]
    Majsoul4pEast,
}

impl RulesArg {
    /// The preset name, as the CLI and the sidecar spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            RulesArg::Sanma => "sanma",
            RulesArg::FourPlayer => "four-player",
            RulesArg::TenhouSanma => "tenhou-sanma",
            RulesArg::Tenhou4p => "tenhou-4p",
            RulesArg::TenhouSanmaEast => "tenhou-sanma-east",
            RulesArg::Tenhou4pEast => "tenhou-4p-east",
            RulesArg::MajsoulSanma => "majsoul-sanma",
            RulesArg::Majsoul4p => "majsoul-4p",
            RulesArg::MajsoulSanmaEast => "majsoul-sanma-east",
            RulesArg::Majsoul4pEast => "majsoul-4p-east",
        }
    }

    /// The engine's rules of this preset.
    pub fn rules(self) -> engine::Rules {
        match self {
            RulesArg::Sanma => engine::Rules::sanma(),
            RulesArg::FourPlayer => engine::Rules::four_player(),
            RulesArg::TenhouSanma => engine::Rules::tenhou_sanma(),
            RulesArg::Tenhou4p => engine::Rules::tenhou_4p(),
            RulesArg::TenhouSanmaEast => engine::Rules::tenhou_sanma().east_only(),
            RulesArg::Tenhou4pEast => engine::Rules::tenhou_4p().east_only(),
            RulesArg::MajsoulSanma => engine::Rules::majsoul_sanma(),
            RulesArg::Majsoul4p => engine::Rules::majsoul_4p(),
            RulesArg::MajsoulSanmaEast => engine::Rules::majsoul_sanma().east_only(),
            RulesArg::Majsoul4pEast => engine::Rules::majsoul_4p().east_only(),
        }
    }

    /// The preset of a name as the sidecar spells it, aliases included (`None` for an
    /// unknown one).
    pub fn from_name(name: &str) -> Option<RulesArg> {
        RulesArg::from_str(name, false).ok()
    }

    /// A clap parser for `String` fields that must hold a preset name (the trainer's
    /// `TrainConfig::rules`, which is saved and compared as a string).
    pub fn name_parser() -> clap::builder::PossibleValuesParser {
        clap::builder::PossibleValuesParser::new(
            RulesArg::value_variants()
                .iter()
                .filter_map(|v| v.to_possible_value()),
        )
    }
}

impl std::fmt::Display for RulesArg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The rules of `score`: a scoring preset (`engine::score::Preset`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScoreRulesArg {
    /// Tenhou three-player: no 2m-8m, no chi, kita, tsumo loss.
    #[value(alias = "sanma")]
    TenhouSanma,
    /// Tenhou four-player.
    #[value(name = "tenhou-4p", alias = "4p")]
    #[serde(rename = "tenhou-4p")]
    Tenhou4p,
    /// Mahjong Soul three-player: Tenhou sanma's scoring with double yakuman.
    MajsoulSanma,
    /// Mahjong Soul four-player: Tenhou's scoring with double yakuman.
    #[value(name = "majsoul-4p")]
    #[serde(rename = "majsoul-4p")]
    Majsoul4p,
}

impl From<ScoreRulesArg> for engine::score::Preset {
    fn from(r: ScoreRulesArg) -> engine::score::Preset {
        use engine::score::Preset;
        match r {
            ScoreRulesArg::TenhouSanma => Preset::TenhouSanma,
            ScoreRulesArg::Tenhou4p => Preset::Tenhou4p,
            ScoreRulesArg::MajsoulSanma => Preset::MajsoulSanma,
            ScoreRulesArg::Majsoul4p => Preset::Majsoul4p,
        }
    }
}

/// How the search deals the worlds it rolls out (`search::Belief`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BeliefArg {
    /// Opponents' hands weighted by inference from their play.
    #[value(alias = "belief")]
    Weighted,
    /// Uniformly among all deals consistent with the observation.
    Uniform,
}

impl From<BeliefArg> for search::Belief {
    fn from(b: BeliefArg) -> search::Belief {
        match b {
            BeliefArg::Weighted => search::Belief::Weighted,
            BeliefArg::Uniform => search::Belief::Uniform,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_the_engine_presets() {
        for r in RulesArg::value_variants() {
            assert_eq!(RulesArg::from_name(r.as_str()), Some(*r));
            let preset = engine::Rules::preset(r.as_str()).expect("engine knows the name");
            assert_eq!(preset, r.rules());
            assert_eq!(
                serde_json::to_string(r).unwrap(),
                format!("\"{}\"", r.as_str())
            );
        }
        assert_eq!(RulesArg::from_name("Sanma"), None);
    }

    #[test]
    fn score_rules_spell_the_engine_presets() {
        for r in ScoreRulesArg::value_variants() {
            let preset: engine::score::Preset = (*r).into();
            let name = r.to_possible_value().unwrap().get_name().to_string();
            assert_eq!(name, preset.name());
            let json: ScoreRulesArg = serde_json::from_str(&format!("\"{name}\"")).unwrap();
            assert_eq!(json, *r);
        }
    }
}
