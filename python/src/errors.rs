//! Python exceptions: one base class and one subclass per kind of bad input, each
//! carrying the engine's own message.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    mahjong_engine,
    MahjongError,
    PyValueError,
    "Base class of every error raised by mahjong_engine (a ValueError)."
);
create_exception!(
    mahjong_engine,
    RulesError,
    MahjongError,
    "An unknown rules preset or an invalid rule set."
);
create_exception!(
    mahjong_engine,
    HandError,
    MahjongError,
    "A hand string or tile count array that is not a valid hand."
);
create_exception!(
    mahjong_engine,
    IllegalActionError,
    MahjongError,
    "An action that is not legal now (or a seat with no decision); the game is unchanged."
);
create_exception!(
    mahjong_engine,
    RecordError,
    MahjongError,
    "Bytes that are not a record, or a record that does not replay."
);
create_exception!(
    mahjong_engine,
    ModelError,
    MahjongError,
    "A model or sidecar that cannot be loaded or does not fit the position."
);
create_exception!(
    mahjong_engine,
    SearchError,
    MahjongError,
    "A search that cannot run (budget, position, configuration)."
);

create_exception!(
    mahjong_engine,
    LogError,
    MahjongError,
    "A game log that cannot be read or does not replay through the engine."
);

create_exception!(
    mahjong_engine,
    ArenaError,
    MahjongError,
    "An arena run that cannot be played (unknown bot, a line-up that does not fill the table, a model that does not load)."
);

/// Adds the exception classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("MahjongError", py.get_type::<MahjongError>())?;
    m.add("RulesError", py.get_type::<RulesError>())?;
    m.add("HandError", py.get_type::<HandError>())?;
    m.add("IllegalActionError", py.get_type::<IllegalActionError>())?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    m.add("ModelError", py.get_type::<ModelError>())?;
    m.add("SearchError", py.get_type::<SearchError>())?;
    m.add("LogError", py.get_type::<LogError>())?;
    m.add("ArenaError", py.get_type::<ArenaError>())?;
    Ok(())
}

/// An illegal-action error naming the seat and the action.
pub fn illegal(e: engine::game::RuleError, seat: u8, what: &str) -> PyErr {
    IllegalActionError::new_err(format!("seat {seat}: {what}: {e}"))
}
