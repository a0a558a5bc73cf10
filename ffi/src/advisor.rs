//! The `mj_advisor` handle: the learned policy (an ONNX model run by tract through the
//! inference crate; no libtorch) as an advisor that fills the same [`mj_advice`] as
//! `mj_efficiency_advise`.
//!
//! A model is `NAME.onnx` plus its JSON sidecar `NAME.json` (written by `host-trainer
//! export` or `inference::onnx_export::export`). Loading checks the observation encoding
//! version and the rules preset; advising checks that the game's rules are that preset.

use std::ffi::{c_char, CStr};
use std::path::PathBuf;

use engine::game::Game;
use engine::Rules;

use crate::bot::{decision, mj_advice, mj_ranked_action, MJ_ADVICE_POLICY};
use crate::error::{guard, guard_infallible, mj_result, Error};
use crate::game::mj_game;
use crate::util::{in_ref, in_str, out_ptr, out_string, put};
use crate::{MJ_MAX_LEGAL_ACTIONS, MJ_RULES_FOUR_PLAYER, MJ_RULES_SANMA};

/// A learned-policy advisor: a loaded model with its sidecar. Opaque; create with
/// `mj_advisor_new`, free with `mj_advisor_free`.
///
/// Immutable once loaded: one advisor may be used by any number of threads at once
/// (every function takes `const mj_advisor *`; the optimised tract plan is shared, each
/// call runs it with its own scratch state). It may also move between threads. Only
/// `mj_advisor_free` needs the advisor to be unused by other threads.
pub struct mj_advisor {
    advisor: inference::Advisor,
    /// The rules preset of the sidecar.
    rules: Rules,
    /// Its `MJ_RULES_*` value.
    rules_code: u32,
}

// The documented thread-safety rests on this: the inference advisor is `Send + Sync`.
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<mj_advisor>()
};

/// What a loaded model is: from its sidecar.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct mj_model_info {
    /// The observation encoding version the model expects (equal to this library's).
    pub encoding_version: u32,
    /// The rules preset it was trained for: `MJ_RULES_SANMA` or `MJ_RULES_FOUR_PLAYER`.
    pub rules: u32,
    /// The parameter version (learner update count) of the exported parameters.
    pub parameter_version: u64,
    /// Transformer blocks.
    pub layers: u32,
    /// Width of every token.
    pub d_model: u32,
    /// Attention heads.
    pub heads: u32,
    /// Hidden width of each block's feed-forward layer.
    pub ff: u32,
}

/// Maps an inference error to its code: an encoding version that is not the engine's is
/// a mismatch, everything else (I/O, sidecar, ONNX, shape, inference) a model error.
fn model_error(e: inference::Error) -> Error {
    let code = match e {
        inference::Error::EncodingMismatch { .. } => mj_result::MJ_MODEL_MISMATCH,
        _ => mj_result::MJ_MODEL_ERROR,
    };
    Error::new(code, e.full_message())
}

/// A model path argument: any bytes on Unix (paths need not be UTF-8), UTF-8 elsewhere.
///
/// # Safety
/// `p` must be NULL or point to a NUL-terminated string that outlives the call.
unsafe fn in_path(p: *const c_char, what: &str) -> Result<PathBuf, Error> {
    if p.is_null() {
        return Err(Error::null(what));
    }
    // SAFETY: non-NULL and NUL-terminated per the caller's contract.
    let s = unsafe { CStr::from_ptr(p) };
    if s.is_empty() {
        return Err(Error::invalid(format!("`{what}` is empty")));
    }
    #[cfg(unix)]
    let path = {
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(std::ffi::OsStr::from_bytes(s.to_bytes()))
    };
    #[cfg(not(unix))]
    let path = PathBuf::from(
        s.to_str()
            .map_err(|e| Error::invalid(format!("`{what}` is not UTF-8: {e}")))?,
    );
    Ok(path)
}

/// Loads `path` and resolves its sidecar's rules preset.
fn load(path: &std::path::Path) -> Result<mj_advisor, Error> {
    let advisor = inference::Advisor::load(path).map_err(model_error)?;
    let sidecar = advisor.sidecar().ok_or_else(|| {
        Error::new(
            mj_result::MJ_INTERNAL,
            "the loaded advisor has no model (not expected)",
        )
    })?;
    let rules = Rules::preset(&sidecar.rules).ok_or_else(|| {
        Error::new(
            mj_result::MJ_MODEL_MISMATCH,
            format!(
                "model {}: its sidecar names rules preset {:?}, which this library does not \
                 know (\"sanma\" or \"four-player\")",
                path.display(),
                sidecar.rules
            ),
        )
    })?;
    Ok(handle(advisor, rules))
}

/// The handle of `advisor` advising games of `rules`.
fn handle(advisor: inference::Advisor, rules: Rules) -> mj_advisor {
    let rules_code = if rules.players == 3 {
        MJ_RULES_SANMA
    } else {
        MJ_RULES_FOUR_PLAYER
    };
    mj_advisor {
        advisor,
        rules,
        rules_code,
    }
}

/// The shipped model that fits the rules preset `name`.
fn shipped(name: &str) -> Result<mj_advisor, Error> {
    let rules = Rules::preset(name).ok_or_else(|| {
        Error::invalid(format!(
            "unknown rules preset {name:?} (try \"sanma\", \"tenhou-sanma\" or \"tenhou-4p\")"
        ))
    })?;
    match inference::shipped::fitting(&rules).map_err(model_error)? {
        Some(advisor) => Ok(handle(advisor, rules)),
        None => Err(Error::new(
            mj_result::MJ_MODEL_MISMATCH,
            inference::shipped::none_fits(&format!("the rules preset {name:?}")),
        )),
    }
}

/// Loads the shipped model (compiled into this library) that fits the rules preset
/// `preset` (`"sanma"`, `"tenhou-sanma"`, `"tenhou-4p"`, their `-east` forms, ...): the
/// advisor then advises games of exactly that preset. Free with `mj_advisor_free`. On
/// error `*out` is untouched.
///
/// Errors: `MJ_NULL_POINTER` (`preset`, `out`), `MJ_INVALID_ARGUMENT` (unknown preset or
/// not UTF-8), `MJ_MODEL_MISMATCH` (no shipped model fits the preset, e.g.
/// `"four-player"`).
///
/// # Safety
/// `preset` must be NULL or a NUL-terminated string; `out` must be NULL or valid for a
/// write.
#[no_mangle]
pub unsafe extern "C" fn mj_advisor_new_shipped(
    preset: *const c_char,
    out: *mut *mut mj_advisor,
) -> mj_result {
    guard("mj_advisor_new_shipped", || {
        // SAFETY: `preset` is NULL or NUL-terminated per the contract.
        let name = unsafe { in_str(preset, "preset") }?;
        out_ptr(out, "out")?;
        let advisor = shipped(name)?;
        let handle = Box::into_raw(Box::new(advisor));
        // SAFETY: `out` is non-NULL (checked) and valid for a write per the contract.
        unsafe { put(out, handle) };
        Ok(())
    })
}

/// Loads a learned policy: the ONNX model at `model_path` and its JSON sidecar (the same
/// path with extension `.json`, e.g. `models/default.onnx` → `models/default.json`).
/// Checks that the model expects this library's observation encoding and was trained
/// for a known rules preset, builds the optimised inference plan once (tract; no
/// libtorch) and probes it. Free with `mj_advisor_free`. On error `*out` is untouched.
///
/// Loading takes milliseconds to a second depending on the model; do it once and share
/// the advisor (it is safe to use from several threads at once, see `mj_advisor`).
///
/// Errors: `MJ_NULL_POINTER` (`model_path`, `out`), `MJ_INVALID_ARGUMENT` (empty path;
/// not UTF-8 on non-Unix systems), `MJ_MODEL_ERROR` (model or sidecar missing,
/// unreadable, truncated, corrupt, or not a policy network of the expected shape),
/// `MJ_MODEL_MISMATCH` (another encoding version, or an unknown rules preset).
///
/// # Safety
/// `model_path` must be NULL or a NUL-terminated string; `out` must be NULL or valid for
/// a write.
#[no_mangle]
pub unsafe extern "C" fn mj_advisor_new(
    model_path: *const c_char,
    out: *mut *mut mj_advisor,
) -> mj_result {
    guard("mj_advisor_new", || {
        // SAFETY: `model_path` is NULL or NUL-terminated per the contract.
        let path = unsafe { in_path(model_path, "model_path") }?;
        out_ptr(out, "out")?;
        let advisor = load(&path)?;
        let handle = Box::into_raw(Box::new(advisor));
        // SAFETY: `out` is non-NULL (checked) and valid for a write per the contract.
        unsafe { put(out, handle) };
        Ok(())
    })
}

/// Frees an advisor. NULL is ignored. No other thread may be using it.
///
/// # Safety
/// `advisor` must be NULL or a pointer returned by `mj_advisor_new` and not freed yet.
#[no_mangle]
pub unsafe extern "C" fn mj_advisor_free(advisor: *mut mj_advisor) {
    guard_infallible((), || {
        if !advisor.is_null() {
            // SAFETY: `advisor` came from `Box::into_raw` in `mj_advisor_new` and is
            // freed once.
            drop(unsafe { Box::from_raw(advisor) });
        }
    })
}

/// The learned-policy advice for a seat with a decision pending.
pub(crate) fn policy_advice(a: &mj_advisor, g: &Game, seat: u8) -> Result<mj_advice, Error> {
    if *g.rules() != a.rules {
        return Err(Error::new(
            mj_result::MJ_MODEL_MISMATCH,
            format!(
                "the model was trained for rules preset {:?}, but the game's rules differ \
                 ({} players)",
                a.advisor.sidecar().map_or("?", |s| s.rules.as_str()),
                g.rules().players
            ),
        ));
    }
    let (obs, legal) = decision(g, seat)?;
    let advice = a
        .advisor
        .advise_with_legal(&obs, legal.as_slice())
        .map_err(model_error)?;
    let best = advice
        .actions
        .first()
        .ok_or_else(|| Error::new(mj_result::MJ_INTERNAL, "the advisor ranked no action"))?;
    if advice.actions.len() > MJ_MAX_LEGAL_ACTIONS {
        return Err(Error::new(
            mj_result::MJ_INTERNAL,
            format!(
                "{} legal actions exceed MJ_MAX_LEGAL_ACTIONS",
                advice.actions.len()
            ),
        ));
    }
    let mut out = mj_advice {
        action: best.index as u16,
        shanten: advice.shanten,
        num_ranked: advice.actions.len() as u8,
        ranked: [mj_ranked_action::default(); MJ_MAX_LEGAL_ACTIONS],
        source: MJ_ADVICE_POLICY,
        has_value: advice.value.is_some(),
        value: advice.value.unwrap_or(0.0),
    };
    for (slot, r) in out.ranked.iter_mut().zip(&advice.actions) {
        *slot = mj_ranked_action {
            action: r.index as u16,
            score: r.probability.unwrap_or(0.0),
        };
    }
    Ok(out)
}

/// The learned-policy advisor: runs the model on what `seat` may see (its observation,
/// encoded as in training) and ranks every legal action of the seat by the policy's
/// probability (a softmax over the legal actions only, so the `num_ranked` scores sum to
/// 1), best first, ties by action index. `action` is the most probable action (always
/// legal); `shanten` as in `mj_efficiency_advise`; `source` is `MJ_ADVICE_POLICY`,
/// `has_value` true and `value` the critic's estimate. The game is not changed.
///
/// May run concurrently with other calls on the same advisor (and, as any function
/// taking `const mj_game *`, on the same game).
///
/// Errors: `MJ_NULL_POINTER`, `MJ_INVALID_ARGUMENT` (no such seat),
/// `MJ_MODEL_MISMATCH` (the game's rules are not the model's preset),
/// `MJ_NOT_YOUR_TURN` (the seat has no decision pending), `MJ_HAND_OVER`,
/// `MJ_GAME_OVER`, `MJ_MODEL_ERROR` (running the model failed; not expected after a
/// successful `mj_advisor_new`). On error `*out` is untouched.
///
/// # Safety
/// `advisor` must be NULL or a live advisor; `game` must be NULL or a live game not
/// being changed by another thread; `out` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_advisor_advise(
    advisor: *const mj_advisor,
    game: *const mj_game,
    seat: u8,
    out: *mut mj_advice,
) -> mj_result {
    guard("mj_advisor_advise", || {
        // SAFETY: `advisor` is NULL or live per the contract.
        let a = unsafe { in_ref(advisor, "advisor") }?;
        // SAFETY: `game` is NULL or live per the contract.
        let g = &unsafe { in_ref(game, "game") }?.game;
        out_ptr(out, "out")?;
        let advice = policy_advice(a, g, seat)?;
        // SAFETY: `out` is non-NULL and valid for a write.
        unsafe { put(out, advice) };
        Ok(())
    })
}

/// Writes what the loaded model is (from its sidecar) to `*out`.
///
/// Errors: `MJ_NULL_POINTER`.
///
/// # Safety
/// `advisor` must be NULL or a live advisor; `out` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_advisor_info(
    advisor: *const mj_advisor,
    out: *mut mj_model_info,
) -> mj_result {
    guard("mj_advisor_info", || {
        // SAFETY: `advisor` is NULL or live per the contract.
        let a = unsafe { in_ref(advisor, "advisor") }?;
        out_ptr(out, "out")?;
        let s = a
            .advisor
            .sidecar()
            .ok_or_else(|| Error::new(mj_result::MJ_INTERNAL, "the advisor has no model"))?;
        let info = mj_model_info {
            encoding_version: s.encoding_version,
            rules: a.rules_code,
            parameter_version: s.parameter_version,
            layers: s.model.layers as u32,
            d_model: s.model.d_model as u32,
            heads: s.model.heads as u32,
            ff: s.model.ff as u32,
        };
        // SAFETY: `out` is non-NULL and valid for a write.
        unsafe { put(out, info) };
        Ok(())
    })
}

/// Writes the training run the model came from (the sidecar's free-text `run_id`,
/// usually the run directory) into `buf` as a NUL-terminated string; `*written` receives
/// its length without the NUL, also on `MJ_BUFFER_TOO_SMALL` (pass `NULL, 0` to ask).
///
/// Errors: `MJ_NULL_POINTER`, `MJ_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `advisor` must be NULL or a live advisor; `buf` must be NULL or valid for `len`
/// writes; `written` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_advisor_run_id(
    advisor: *const mj_advisor,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> mj_result {
    guard("mj_advisor_run_id", || {
        // SAFETY: `advisor` is NULL or live per the contract.
        let a = unsafe { in_ref(advisor, "advisor") }?;
        out_ptr(written, "written")?;
        let run_id = a.advisor.sidecar().map_or("", |s| s.run_id.as_str());
        // SAFETY: buffer contract as documented.
        unsafe { out_string(buf, len, run_id, written, "buf") }
    })
}
