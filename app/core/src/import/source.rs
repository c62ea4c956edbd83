//! Where the files of a layout-based import come from: a folder on disk, a `.zip` or a `.tar.gz`.
//!
//! Every source lists regular files only, as `/`-separated paths relative to its root, and refuses
//! at construction: path traversal (`..`, absolute paths, `\`), symbolic and hard links, special
//! files, duplicate paths, more than `max_files` entries, and any declared size over
//! `max_file_bytes` / `max_total_bytes`. Sizes are checked again while reading (declared sizes can
//! lie), by the readers in `text.rs` and, for tar, while spooling.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{Read, Seek};
use std::path::{Path, PathBuf};

use super::{Errors, ImportError, ImportLimits};

/// A set of files to import: list them, open one as a reader.
pub trait ImportSource {
    /// The regular files, as sorted `/`-separated paths relative to the root.
    fn files(&self) -> Vec<String>;
    /// Opens one of the listed files for reading.
    fn open(&mut self, path: &str) -> Result<Box<dyn Read + '_>, ImportError>;
}

/// Why an archive member's name is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PathError {
    #[error("path contains a backslash or NUL character")]
    Backslash,
    #[error("absolute path not allowed")]
    Absolute,
    #[error("path traversal (`..`) not allowed")]
    Traversal,
    #[error("drive-letter path not allowed")]
    DriveLetter,
    #[error("empty path")]
    Empty,
}

/// Normalises an archive member name; refuses absolute paths, `..`, backslashes and drive letters.
pub(crate) fn clean_path(name: &str) -> Result<String, PathError> {
    if name.contains('\\') || name.contains('\0') {
        return Err(PathError::Backslash);
    }
    if name.starts_with('/') {
        return Err(PathError::Absolute);
    }
    let mut parts = Vec::new();
    for (i, part) in name.split('/').enumerate() {
        match part {
            "" | "." => continue,
            ".." => return Err(PathError::Traversal),
            p if i == 0 && p.len() >= 2 && p.ends_with(':') => {
                return Err(PathError::DriveLetter);
            }
            p => parts.push(p),
        }
    }
    if parts.is_empty() {
        return Err(PathError::Empty);
    }
    Ok(parts.join("/"))
}

/// Checks counts and declared sizes while listing; errors go to `errs`.
struct Listing<'a> {
    limits: &'a ImportLimits,
    count: usize,
    declared_total: u64,
}

impl Listing<'_> {
    /// Returns false when listing must stop.
    fn admit(&mut self, errs: &mut Errors, path: &str, declared: u64) -> bool {
        self.count += 1;
        if self.count > self.limits.max_files {
            errs.push(
                path,
                None,
                format!("too many files: the limit is {}", self.limits.max_files),
            );
            return false;
        }
        if declared > self.limits.max_file_bytes {
            errs.push(
                path,
                None,
                format!(
                    "file is {declared} bytes, over the limit of {} bytes per file",
                    self.limits.max_file_bytes
                ),
            );
            return false;
        }
        self.declared_total = self.declared_total.saturating_add(declared);
        if self.declared_total > self.limits.max_total_bytes {
            errs.push(
                path,
                None,
                format!(
                    "the files add up to more than the limit of {} bytes",
                    self.limits.max_total_bytes
                ),
            );
            return false;
        }
        true
    }
}

/// A folder on disk.
#[derive(Debug)]
pub struct DirSource {
    root: PathBuf,
    files: Vec<String>,
}

impl DirSource {
    /// Lists a folder recursively under the limits; symbolic links and special files are errors.
    pub fn new(root: &Path, limits: &ImportLimits) -> Result<DirSource, Vec<ImportError>> {
        let mut errs = Errors::new(limits.max_errors);
        let mut listing = Listing {
            limits,
            count: 0,
            declared_total: 0,
        };
        let mut files = Vec::new();
        let mut stack = vec![(root.to_path_buf(), String::new())];
        'walk: while let Some((dir, rel)) = stack.pop() {
            let entries = match std::fs::read_dir(&dir) {
                Ok(e) => e,
                Err(e) => {
                    errs.push(&rel, None, format!("folder could not be read: {e}"));
                    continue;
                }
            };
            for entry in entries {
                let entry = match entry {
                    Ok(e) => e,
                    Err(e) => {
                        errs.push(&rel, None, format!("folder could not be read: {e}"));
                        continue;
                    }
                };
                let name = entry.file_name();
                let Some(name) = name.to_str() else {
                    errs.push(
                        &rel,
                        None,
                        format!("file name {:?} is not UTF-8", entry.file_name()),
                    );
                    continue;
                };
                let path = if rel.is_empty() {
                    name.to_string()
                } else {
                    format!("{rel}/{name}")
                };
                let meta = match std::fs::symlink_metadata(entry.path()) {
                    Ok(m) => m,
                    Err(e) => {
                        errs.push(&path, None, format!("could not be read: {e}"));
                        continue;
                    }
                };
                let ft = meta.file_type();
                if ft.is_symlink() {
                    errs.push(&path, None, "symbolic links are not allowed");
                } else if ft.is_dir() {
                    stack.push((entry.path(), path));
                } else if ft.is_file() {
                    if !listing.admit(&mut errs, &path, meta.len()) {
                        break 'walk;
                    }
                    files.push(path);
                } else {
                    errs.push(&path, None, "not a regular file");
                }
                if errs.full() {
                    break 'walk;
                }
            }
        }
        if !errs.is_empty() {
            return Err(errs.into_vec());
        }
        files.sort();
        Ok(DirSource {
            root: root.to_path_buf(),
            files,
        })
    }
}

impl ImportSource for DirSource {
    fn files(&self) -> Vec<String> {
        self.files.clone()
    }

    fn open(&mut self, path: &str) -> Result<Box<dyn Read + '_>, ImportError> {
        if self
            .files
            .binary_search_by(|f| f.as_str().cmp(path))
            .is_err()
        {
            return Err(ImportError::new(path, None, "no such file in the import"));
        }
        let full = path.split('/').fold(self.root.clone(), |p, c| p.join(c));
        let f = File::open(&full)
            .map_err(|e| ImportError::new(path, None, format!("could not be opened: {e}")))?;
        Ok(Box::new(f))
    }
}

/// A `.zip` archive read from any `Read + Seek` (an uploaded temp file). Entries are decompressed
/// one at a time when opened; the archive is never loaded whole.
pub struct ZipSource<R: Read + Seek> {
    archive: zip::ZipArchive<R>,
    index: BTreeMap<String, usize>,
}

impl ZipSource<File> {
    /// Opens a `.zip` file on disk.
    pub fn from_path(path: &Path, limits: &ImportLimits) -> Result<Self, Vec<ImportError>> {
        let label = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("upload.zip")
            .to_string();
        let f = File::open(path).map_err(|e| {
            vec![ImportError::new(
                label,
                None,
                format!("could not be opened: {e}"),
            )]
        })?;
        ZipSource::new(f, limits)
    }
}

impl<R: Read + Seek> ZipSource<R> {
    /// Reads the central directory and checks every entry against the rules and limits.
    pub fn new(reader: R, limits: &ImportLimits) -> Result<Self, Vec<ImportError>> {
        let mut archive = zip::ZipArchive::new(reader).map_err(|e| {
            vec![ImportError::new(
                "",
                None,
                format!("not a readable zip archive: {e}"),
            )]
        })?;
        let mut errs = Errors::new(limits.max_errors);
        let mut listing = Listing {
            limits,
            count: 0,
            declared_total: 0,
        };
        let mut index = BTreeMap::new();
        if archive.len() > limits.max_files {
            errs.push(
                "",
                None,
                format!(
                    "the archive has {} entries; the limit is {}",
                    archive.len(),
                    limits.max_files
                ),
            );
            return Err(errs.into_vec());
        }
        for i in 0..archive.len() {
            let entry = match archive.by_index_raw(i) {
                Ok(e) => e,
                Err(e) => {
                    errs.push(
                        "",
                        None,
                        format!("zip entry {} could not be read: {e}", i + 1),
                    );
                    break;
                }
            };
            let raw_name = match entry.name() {
                Ok(n) => n.into_owned(),
                Err(_) => String::from_utf8_lossy(entry.name_raw()).into_owned(),
            };
            let path = match clean_path(&raw_name) {
                Ok(p) => p,
                Err(why) => {
                    errs.push(&raw_name, None, why.to_string());
                    continue;
                }
            };
            if entry.is_symlink() {
                errs.push(&path, None, "symbolic links are not allowed");
                continue;
            }
            if entry.is_dir() {
                continue;
            }
            if !listing.admit(&mut errs, &path, entry.size()) {
                break;
            }
            if index.insert(path.clone(), i).is_some() {
                errs.push(&path, None, "appears twice in the archive");
            }
            if errs.full() {
                break;
            }
        }
        if !errs.is_empty() {
            return Err(errs.into_vec());
        }
        Ok(ZipSource { archive, index })
    }
}

impl<R: Read + Seek> ImportSource for ZipSource<R> {
    fn files(&self) -> Vec<String> {
        self.index.keys().cloned().collect()
    }

    fn open(&mut self, path: &str) -> Result<Box<dyn Read + '_>, ImportError> {
        let Some(&i) = self.index.get(path) else {
            return Err(ImportError::new(path, None, "no such file in the archive"));
        };
        let f = self
            .archive
            .by_index(i)
            .map_err(|e| ImportError::new(path, None, format!("could not be extracted: {e}")))?;
        Ok(Box::new(f))
    }
}

/// A `.tar.gz` archive. It can only be read front to back, so construction streams it once,
/// checking each entry as it comes and copying regular files (under the limits) into a private
/// temporary folder; `open` then reads from there.
pub struct TarGzSource {
    dir: tempfile::TempDir,
    index: BTreeMap<String, PathBuf>,
}

impl TarGzSource {
    /// Opens a `.tar.gz` file on disk.
    pub fn from_path(path: &Path, limits: &ImportLimits) -> Result<Self, Vec<ImportError>> {
        let label = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("upload.tar.gz")
            .to_string();
        let f = File::open(path).map_err(|e| {
            vec![ImportError::new(
                label,
                None,
                format!("could not be opened: {e}"),
            )]
        })?;
        TarGzSource::new(f, limits)
    }

    /// Streams a gzip-compressed tar archive from `reader` under the limits.
    pub fn new<R: Read>(reader: R, limits: &ImportLimits) -> Result<Self, Vec<ImportError>> {
        let dir = tempfile::TempDir::new().map_err(|e| {
            vec![ImportError::new(
                "",
                None,
                format!("no temporary folder available: {e}"),
            )]
        })?;
        let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(reader));
        let mut errs = Errors::new(limits.max_errors);
        let mut listing = Listing {
            limits,
            count: 0,
            declared_total: 0,
        };
        let mut index: BTreeMap<String, PathBuf> = BTreeMap::new();
        let mut seen: HashMap<String, ()> = HashMap::new();
        let mut total: u64 = 0;
        let entries = match archive.entries() {
            Ok(e) => e,
            Err(e) => {
                return Err(vec![ImportError::new(
                    "",
                    None,
                    format!("not a readable tar.gz archive: {e}"),
                )]);
            }
        };
        for (n, entry) in entries.enumerate() {
            let mut entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    errs.push(
                        "",
                        None,
                        format!("not a readable tar.gz archive (entry {}): {e}", n + 1),
                    );
                    break;
                }
            };
            let raw_name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
            let kind = entry.header().entry_type();
            // Folders are skipped before their name is checked: `tar czf x.tgz -C dir .` stores
            // the root as `./`.
            if kind.is_dir() && !raw_name.split('/').any(|p| p == "..") {
                continue;
            }
            let path = match clean_path(&raw_name) {
                Ok(p) => p,
                Err(why) => {
                    errs.push(&raw_name, None, why.to_string());
                    if errs.full() {
                        break;
                    }
                    continue;
                }
            };
            if kind.is_symlink() || kind.is_hard_link() {
                errs.push(&path, None, "symbolic and hard links are not allowed");
                continue;
            }
            if !(kind.is_file() || kind.is_contiguous()) {
                errs.push(&path, None, "not a regular file");
                continue;
            }
            let declared = entry.header().size().unwrap_or(u64::MAX);
            if !listing.admit(&mut errs, &path, declared) {
                break;
            }
            if seen.insert(path.clone(), ()).is_some() {
                errs.push(&path, None, "appears twice in the archive");
                continue;
            }
            let target = dir.path().join(format!("{}", index.len()));
            let copied = File::create(&target).and_then(|mut out| {
                std::io::copy(
                    &mut (&mut entry).take(limits.max_file_bytes.saturating_add(1)),
                    &mut out,
                )
            });
            match copied {
                Ok(c) if c > limits.max_file_bytes => {
                    errs.push(
                        &path,
                        None,
                        format!(
                            "file is larger than the limit of {} bytes",
                            limits.max_file_bytes
                        ),
                    );
                    break;
                }
                Ok(c) => {
                    total += c;
                    if total > limits.max_total_bytes {
                        errs.push(
                            &path,
                            None,
                            format!(
                                "the archive holds more than the limit of {} bytes",
                                limits.max_total_bytes
                            ),
                        );
                        break;
                    }
                }
                Err(e) => {
                    errs.push(&path, None, format!("could not be extracted: {e}"));
                    break;
                }
            }
            index.insert(path, target);
            if errs.full() {
                break;
            }
        }
        if !errs.is_empty() {
            return Err(errs.into_vec());
        }
        Ok(TarGzSource { dir, index })
    }
}

impl ImportSource for TarGzSource {
    fn files(&self) -> Vec<String> {
        self.index.keys().cloned().collect()
    }

    fn open(&mut self, path: &str) -> Result<Box<dyn Read + '_>, ImportError> {
        let Some(p) = self.index.get(path) else {
            return Err(ImportError::new(path, None, "no such file in the archive"));
        };
        debug_assert!(p.starts_with(self.dir.path()));
        let f = File::open(p)
            .map_err(|e| ImportError::new(path, None, format!("could not be opened: {e}")))?;
        Ok(Box::new(f))
    }
}
