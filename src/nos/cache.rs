//! LANCACHE on the server: which file blocks are in memory, and what must go to disk.
//!
//! The cache holds up to `size_bytes / block_bytes` blocks of `block_bytes`, replaced
//! least recently used. A read touches its blocks; the missing ones are read from disk,
//! together with up to `read_ahead_bytes` more of the file after the request (one disk
//! access per run of missing blocks). A write puts its blocks in the cache: written
//! through (the written bytes go to disk before the server replies) or, when delayed
//! writes are allowed, marked dirty and written by the next [`Cache::flush`] or when the
//! block is evicted. A partial block written need not be read first (the server writes
//! whole sectors from DOS's buffers; assumption).
//!
//! The cache also keeps, for the audit, the version of every written block: the last
//! one written, and the one on disk. Invariant ([`Cache::check`]): every block ever
//! written is, in its last version, either dirty in the cache or on disk, not both, and
//! the cache never holds more than its capacity. Units: bytes, blocks.

use std::collections::{BTreeMap, HashMap};

use crate::time::SimDuration;

/// The write policy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WritePolicy {
    /// Every write reaches the disk before the reply.
    WriteThrough,
    /// Writes stay dirty in the cache until the flush every `flush_every`.
    Delayed { flush_every: SimDuration },
}

/// LANCACHE's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct CacheConfig {
    pub size_bytes: u64,
    pub block_bytes: u32,
    /// Extra bytes read after a read that misses.
    pub read_ahead_bytes: u32,
    pub policy: WritePolicy,
}

/// A run of bytes of one file, for the disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extent {
    pub file: u32,
    pub offset: u64,
    pub bytes: u64,
    pub write: bool,
}

/// Counters of the cache.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    pub read_hits: u64,
    pub read_misses: u64,
    pub evictions: u64,
    pub dirty_evictions: u64,
    pub blocks_flushed: u64,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    stamp: u64,
    dirty: bool,
}

type Key = (u32, u64);

/// The server's cache.
#[derive(Clone, Debug)]
pub struct Cache {
    cfg: CacheConfig,
    capacity: usize,
    entries: HashMap<Key, Entry>,
    lru: BTreeMap<u64, Key>,
    next_stamp: u64,
    /// Last version written of each block, and the version on disk.
    written: HashMap<Key, u64>,
    on_disk: HashMap<Key, u64>,
    /// Bytes in each file (for flushing whole blocks).
    sizes: HashMap<u32, u64>,
    pub stats: CacheStats,
}

impl Cache {
    pub fn new(cfg: CacheConfig) -> Self {
        let capacity = (cfg.size_bytes / cfg.block_bytes.max(1) as u64) as usize;
        Cache {
            cfg,
            capacity,
            entries: HashMap::new(),
            lru: BTreeMap::new(),
            next_stamp: 0,
            written: HashMap::new(),
            on_disk: HashMap::new(),
            sizes: HashMap::new(),
            stats: CacheStats::default(),
        }
    }

    pub fn config(&self) -> &CacheConfig {
        &self.cfg
    }

    /// Blocks in the cache.
    pub fn blocks(&self) -> usize {
        self.entries.len()
    }

    fn blocks_of(&self, offset: u64, bytes: u64) -> std::ops::Range<u64> {
        let b = self.cfg.block_bytes as u64;
        if bytes == 0 {
            return offset / b..offset / b;
        }
        offset / b..(offset + bytes).div_ceil(b)
    }

    fn touch(&mut self, key: Key, dirty: bool, out: &mut Vec<Extent>) {
        self.next_stamp += 1;
        let stamp = self.next_stamp;
        if let Some(e) = self.entries.get_mut(&key) {
            self.lru.remove(&e.stamp);
            e.stamp = stamp;
            e.dirty |= dirty;
        } else {
            if self.capacity == 0 {
                if dirty {
                    // no room at all: the write goes straight to disk
                    out.push(self.block_extent(key));
                    self.mark_on_disk(key);
                }
                return;
            }
            if self.entries.len() >= self.capacity {
                self.evict(out);
            }
            self.entries.insert(key, Entry { stamp, dirty });
        }
        self.lru.insert(stamp, key);
    }

    fn evict(&mut self, out: &mut Vec<Extent>) {
        let Some((_, key)) = self.lru.pop_first() else {
            return;
        };
        let e = self.entries.remove(&key).expect("lru and entries agree");
        self.stats.evictions += 1;
        if e.dirty {
            self.stats.dirty_evictions += 1;
            out.push(self.block_extent(key));
            self.mark_on_disk(key);
        }
    }

    fn block_extent(&self, (file, block): Key) -> Extent {
        let b = self.cfg.block_bytes as u64;
        let size = self.sizes.get(&file).copied().unwrap_or(0);
        let offset = block * b;
        Extent {
            file,
            offset,
            bytes: b.min(size.saturating_sub(offset)).max(1),
            write: true,
        }
    }

    fn mark_on_disk(&mut self, key: Key) {
        if let Some(&v) = self.written.get(&key) {
            self.on_disk.insert(key, v);
        }
    }

    /// Reads `bytes` at `offset` of `file` (`size` bytes long). Returns the disk accesses
    /// needed, in order: dirty blocks evicted to make room, then the runs of missing
    /// blocks (with read-ahead).
    pub fn read(&mut self, file: u32, offset: u64, bytes: u64, size: u64) -> Vec<Extent> {
        let mut out = Vec::new();
        let b = self.cfg.block_bytes as u64;
        let wanted = self.blocks_of(offset, bytes.min(size.saturating_sub(offset)));
        let missing: Vec<u64> = wanted
            .clone()
            .filter(|k| !self.entries.contains_key(&(file, *k)))
            .collect();
        if missing.is_empty() {
            self.stats.read_hits += 1;
        } else {
            self.stats.read_misses += 1;
        }
        let mut reads: Vec<Extent> = Vec::new();
        if let (Some(&first), Some(&last)) = (missing.first(), missing.last()) {
            // the missing blocks and the read-ahead, in runs of blocks not in the cache
            let end = (offset + bytes + self.cfg.read_ahead_bytes as u64)
                .min(size)
                .div_ceil(b);
            for k in first..end.max(last + 1) {
                if self.entries.contains_key(&(file, k)) {
                    if k > last {
                        break; // read-ahead stops at the first cached block
                    }
                    continue;
                }
                let off = k * b;
                let len = b.min(size.saturating_sub(off)).max(1);
                match reads.last_mut() {
                    Some(r) if r.offset + r.bytes == off => r.bytes += len,
                    _ => reads.push(Extent {
                        file,
                        offset: off,
                        bytes: len,
                        write: false,
                    }),
                }
                self.touch((file, k), false, &mut out);
            }
        }
        for k in wanted {
            self.touch((file, k), false, &mut out);
        }
        out.extend(reads);
        out
    }

    /// Writes `bytes` at `offset` of `file`; `delay`: the write may stay dirty. Returns
    /// the disk accesses needed before the reply, in order.
    pub fn write(&mut self, file: u32, offset: u64, bytes: u64, delay: bool) -> Vec<Extent> {
        let size = self.sizes.entry(file).or_insert(0);
        *size = (*size).max(offset + bytes);
        let mut out = Vec::new();
        let blocks = self.blocks_of(offset, bytes);
        for k in blocks.clone() {
            *self.written.entry((file, k)).or_insert(0) += 1;
            self.touch((file, k), delay, &mut out);
        }
        if !delay {
            out.push(Extent {
                file,
                offset,
                bytes,
                write: true,
            });
            for k in blocks {
                self.mark_on_disk((file, k));
            }
        }
        out
    }

    /// Writes every dirty block: returns the disk writes (whole blocks, merged into runs,
    /// in file and block order) and marks the blocks clean.
    pub fn flush(&mut self) -> Vec<Extent> {
        let mut dirty: Vec<Key> = self
            .entries
            .iter()
            .filter(|(_, e)| e.dirty)
            .map(|(k, _)| *k)
            .collect();
        dirty.sort_unstable();
        let mut out: Vec<Extent> = Vec::new();
        for key in dirty {
            let x = self.block_extent(key);
            match out.last_mut() {
                Some(r) if r.file == x.file && r.offset + r.bytes == x.offset => r.bytes += x.bytes,
                _ => out.push(x),
            }
            self.entries.get_mut(&key).expect("listed").dirty = false;
            self.mark_on_disk(key);
            self.stats.blocks_flushed += 1;
        }
        out
    }

    /// Dirty blocks in the cache.
    pub fn dirty_blocks(&self) -> usize {
        self.entries.values().filter(|e| e.dirty).count()
    }

    /// Checks the invariant of the module doc.
    pub fn check(&self) -> Result<(), String> {
        if self.entries.len() > self.capacity || self.entries.len() != self.lru.len() {
            return Err(format!(
                "cache holds {} blocks ({} in LRU order), capacity {}",
                self.entries.len(),
                self.lru.len(),
                self.capacity
            ));
        }
        for (key, &v) in &self.written {
            let dirty = self.entries.get(key).is_some_and(|e| e.dirty);
            let disk = self.on_disk.get(key) == Some(&v);
            if dirty == disk {
                return Err(format!(
                    "file {} block {}: last version {v} is {} (disk has {:?})",
                    key.0,
                    key.1,
                    if dirty {
                        "both dirty in the cache and on disk"
                    } else {
                        "neither dirty in the cache nor on disk"
                    },
                    self.on_disk.get(key)
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache(blocks: u64, policy: WritePolicy) -> Cache {
        Cache::new(CacheConfig {
            size_bytes: blocks * 1024,
            block_bytes: 1024,
            read_ahead_bytes: 2048,
            policy,
        })
    }

    const DELAYED: WritePolicy = WritePolicy::Delayed {
        flush_every: SimDuration::from_secs(3),
    };

    #[test]
    fn test_write_through_goes_to_disk_and_stays_cached() {
        let mut c = cache(4, WritePolicy::WriteThrough);
        let d = c.write(1, 0, 512, false);
        assert_eq!(
            d,
            vec![Extent {
                file: 1,
                offset: 0,
                bytes: 512,
                write: true
            }]
        );
        assert!(c.read(1, 0, 512, 512).is_empty(), "just written: a hit");
        assert_eq!((c.stats.read_hits, c.dirty_blocks()), (1, 0));
        c.check().unwrap();
    }

    #[test]
    fn test_delayed_write_waits_for_the_flush_or_an_eviction() {
        let mut c = cache(2, DELAYED);
        assert!(
            c.write(1, 0, 2048, true).is_empty(),
            "delayed: no disk before the reply"
        );
        assert_eq!(c.dirty_blocks(), 2);
        c.check().unwrap();
        // a third block evicts the oldest dirty one, which must be written first
        let d = c.write(1, 2048, 1024, true);
        assert_eq!(
            d,
            vec![Extent {
                file: 1,
                offset: 0,
                bytes: 1024,
                write: true
            }]
        );
        let f = c.flush();
        assert_eq!(
            f,
            vec![Extent {
                file: 1,
                offset: 1024,
                bytes: 2048,
                write: true
            }],
            "merged run"
        );
        assert_eq!(c.dirty_blocks(), 0);
        c.check().unwrap();
    }

    #[test]
    fn test_sequential_reads_larger_than_the_cache_always_miss() {
        let mut c = cache(4, WritePolicy::WriteThrough);
        let size = 8 * 1024;
        for off in (0..size).step_by(1024) {
            c.write(7, off, 1024, false);
        }
        // LRU and a file twice the cache: every pass misses (with read-ahead 2 blocks,
        // one miss per 3 blocks)
        for _ in 0..2 {
            for off in (0..size).step_by(1024) {
                c.read(7, off, 1024, size);
            }
        }
        assert_eq!(c.stats.read_hits + c.stats.read_misses, 16);
        assert!(c.stats.read_misses >= 5, "{:?}", c.stats);
        // a file that fits is read from the cache after one pass
        let mut c = cache(16, WritePolicy::WriteThrough);
        for off in (0..size).step_by(1024) {
            c.write(7, off, 1024, false);
            c.read(7, off, 1024, size);
        }
        assert_eq!(c.stats.read_misses, 0);
        c.check().unwrap();
    }
}
