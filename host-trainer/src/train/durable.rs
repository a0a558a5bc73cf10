//! Durable file replacement: a run folder's files either keep their old content or get
//! the new one in full, even if the process is killed or the machine loses power.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// The temporary sibling that [`write_atomic`] writes first: `<file name>.tmp` in the
/// same folder (a rename is only atomic within one file system).
pub fn temp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
}

/// Replaces `path` with `bytes`: writes the temporary sibling, syncs it, renames it over
/// `path` and syncs the folder. Without the first sync the rename could reach the disk
/// before the data (an empty file after a crash); without the folder sync the rename
/// itself could be lost.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = temp_path(path);
    {
        let mut f = File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
        f.write_all(bytes)
            .with_context(|| format!("writing {}", tmp.display()))?;
        f.sync_all()
            .with_context(|| format!("syncing {}", tmp.display()))?;
    }
    test_pause_before_rename(path);
    std::fs::rename(&tmp, path)
        .with_context(|| format!("renaming {} to {}", tmp.display(), path.display()))?;
    sync_dir(path.parent().unwrap_or(Path::new(".")))
}

/// **Test hook** (for `tests/train_kill.rs`, which SIGKILLs `train` while a checkpoint
/// is being written): set to `<file name>:<milliseconds>`, e.g. `checkpoint.bin:3000`,
/// it makes [`write_atomic`] sleep that long between syncing `<file name>.tmp` and
/// renaming it, so that the kill lands in that window for sure. Nothing else reads it;
/// unset (or malformed) it does nothing.
pub const TEST_PAUSE_BEFORE_RENAME_ENV: &str = "HOST_TRAINER_TEST_PAUSE_BEFORE_RENAME";

fn test_pause_before_rename(path: &Path) {
    let Ok(spec) = std::env::var(TEST_PAUSE_BEFORE_RENAME_ENV) else {
        return;
    };
    let Some((name, ms)) = spec.split_once(':') else {
        return;
    };
    if path.file_name().is_some_and(|n| n == name) {
        if let Ok(ms) = ms.parse::<u64>() {
            std::thread::sleep(std::time::Duration::from_millis(ms));
        }
    }
}

/// Syncs a folder's entries (names, renames) to disk.
#[cfg(unix)]
pub fn sync_dir(dir: &Path) -> Result<()> {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    File::open(dir)
        .and_then(|d| d.sync_all())
        .with_context(|| format!("syncing the folder {}", dir.display()))
}

/// Folders cannot be opened as files here; the rename is as durable as the platform makes it.
#[cfg(not(unix))]
pub fn sync_dir(_dir: &Path) -> Result<()> {
    Ok(())
}
