// Shared by the integration tests (included with `mod`); not a test target itself.
#![allow(dead_code)]
//! RAII wrappers of the C ABI's handles (games, bots, learned-policy advisors), the
//! thread's last error, and the small randomly initialised models the advisor tests
//! load (no trained model is needed).

use std::ffi::{c_char, CStr};
use std::path::{Path, PathBuf};
use std::ptr::null_mut;

use inference::onnx_export::export;
use inference::{ModelConfig, Sidecar, Weights};
use mahjong_ffi::*;

use mj_result::*;

/// The calling thread's last error message (`mj_last_error_message`).
pub fn last_error() -> String {
    let mut buf = [0 as c_char; 512];
    let mut n = 0usize;
    // SAFETY: `buf` holds 512 bytes and `n` is a valid out pointer.
    let r = unsafe { mj_last_error_message(buf.as_mut_ptr(), buf.len(), &mut n) };
    assert_eq!(r, MJ_OK);
    // SAFETY: on MJ_OK the buffer holds a NUL-terminated string.
    let s = unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_str()
        .unwrap()
        .to_string();
    assert_eq!(s.len(), n);
    s
}

/// An owned `mj_game`, freed on drop.
pub struct Game(pub *mut mj_game);

impl Game {
    pub fn new(rules: u32, seed: u64) -> Game {
        let mut g = null_mut();
        // SAFETY: `g` is a valid out pointer.
        assert_eq!(unsafe { mj_game_new(rules, seed, &mut g) }, MJ_OK);
        assert!(!g.is_null());
        Game(g)
    }

    pub fn status(&self) -> mj_status {
        let mut st = mj_status::default();
        // SAFETY: live game, valid out pointer.
        assert_eq!(unsafe { mj_game_status(self.0, &mut st) }, MJ_OK);
        st
    }

    pub fn legal(&self, seat: u8) -> Vec<u16> {
        let mut buf = [0u16; MJ_MAX_LEGAL_ACTIONS];
        let mut n = 0;
        // SAFETY: live game, buffer of MJ_MAX_LEGAL_ACTIONS, valid out pointer.
        let r = unsafe { mj_game_legal_actions(self.0, seat, buf.as_mut_ptr(), buf.len(), &mut n) };
        assert_eq!(r, MJ_OK);
        buf[..n].to_vec()
    }

    pub fn record(&self) -> Vec<u8> {
        let mut buf = vec![0u8; MJ_RECORD_MAX_BYTES];
        let mut n = 0;
        // SAFETY: live game, buffer of its length, valid out pointer.
        let r = unsafe { mj_game_hand_record(self.0, buf.as_mut_ptr(), buf.len(), &mut n) };
        assert_eq!(r, MJ_OK);
        buf.truncate(n);
        buf
    }
}

impl Drop for Game {
    fn drop(&mut self) {
        // SAFETY: the pointer came from a constructor and is freed once.
        unsafe { mj_game_free(self.0) };
    }
}

/// An owned `mj_bot`, freed on drop.
pub struct Bot(pub *mut mj_bot);

impl Bot {
    pub fn random(seed: u64) -> Bot {
        let mut b = null_mut();
        // SAFETY: valid out pointer.
        assert_eq!(unsafe { mj_bot_new_random(seed, &mut b) }, MJ_OK);
        Bot(b)
    }
    pub fn efficiency() -> Bot {
        let mut b = null_mut();
        // SAFETY: valid out pointer.
        assert_eq!(unsafe { mj_bot_new_efficiency(&mut b) }, MJ_OK);
        Bot(b)
    }
    pub fn defend() -> Bot {
        let mut b = null_mut();
        // SAFETY: valid out pointer.
        assert_eq!(unsafe { mj_bot_new_defend(&mut b) }, MJ_OK);
        Bot(b)
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        // SAFETY: the pointer came from a constructor and is freed once.
        unsafe { mj_bot_free(self.0) };
    }
}

/// A small model: loads and runs fast, also in debug builds.
pub const SMALL: ModelConfig = ModelConfig {
    layers: 1,
    d_model: 16,
    heads: 2,
    ff: 32,
    tokens: engine::tile::TileSet::FourPlayer,
};

/// A fresh scratch directory under cargo's per-package temp dir (`name` unique per
/// test).
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("ffi-tests-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes a randomly initialised small model `dir/NAME.onnx` + `dir/NAME.json`.
pub fn write_model(dir: &Path, name: &str, rules: &str, seed: u64) -> PathBuf {
    let path = dir.join(format!("{name}.onnx"));
    let weights = Weights::random(SMALL, seed).unwrap();
    let sidecar = Sidecar::new(SMALL, rules, "runs/abi-test", 1234, "ffi abi test");
    export(&weights, &sidecar, &path).unwrap();
    path
}

pub fn c_path(p: &Path) -> std::ffi::CString {
    std::ffi::CString::new(p.to_str().unwrap()).unwrap()
}

/// An owned `mj_advisor`, freed on drop.
pub struct Advisor(pub *mut mj_advisor);

// SAFETY: an advisor is immutable once loaded and documented as usable from any number
// of threads at once (its functions take `const mj_advisor *`); it may move between
// threads. Only the drop (`mj_advisor_free`) needs it unused, which `&self` borrows
// guarantee.
unsafe impl Send for Advisor {}
// SAFETY: as above.
unsafe impl Sync for Advisor {}

impl Advisor {
    pub fn load(path: &Path) -> Advisor {
        let mut a = null_mut();
        // SAFETY: NUL-terminated path, valid out pointer.
        let r = unsafe { mj_advisor_new(c_path(path).as_ptr(), &mut a) };
        assert_eq!(r, MJ_OK, "{}", last_error());
        assert!(!a.is_null());
        Advisor(a)
    }

    pub fn advise(&self, g: &Game, seat: u8) -> Result<mj_advice, mj_result> {
        let mut out = std::mem::MaybeUninit::<mj_advice>::uninit();
        // SAFETY: live advisor and game, valid out pointer.
        match unsafe { mj_advisor_advise(self.0, g.0, seat, out.as_mut_ptr()) } {
            // SAFETY: MJ_OK means the advice was written.
            MJ_OK => Ok(unsafe { out.assume_init() }),
            e => Err(e),
        }
    }
}

impl Drop for Advisor {
    fn drop(&mut self) {
        // SAFETY: the pointer came from mj_advisor_new and is freed once.
        unsafe { mj_advisor_free(self.0) };
    }
}
