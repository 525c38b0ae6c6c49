//! Issue 15: the views of the wire. The pcapng capture read back with the pcap-file
//! crate against the run's counters (saturate, a bulletin PERFORM3 run, a 1995 ttcp run
//! with its TCP checksums and sequence numbers), tshark where it is installed, the
//! physics of a two-station collision in the event stream, and the command line's
//! errors (no partial file left).

use std::path::Path;

use ethersim::ether::{SegmentConfig, WireEvent};
use ethersim::lan::instruments::bytes::{checksum_ok, crc32, ipv4_address, pseudo_header_sum};
use ethersim::lan::instruments::pcap::{PcapCounts, PcapWriter, EPB_FLAG_CRC_ERROR};
use ethersim::lan::instruments::Tee;
use ethersim::lan::observe::{Content, HostWork, HostWorkKind, Observation, Observer};
use ethersim::nos::packet::PacketKind;
use ethersim::run;
use ethersim::scenario::{self, Override, Scenario, Workload};
use ethersim::time::{SimDuration, SimTime};
use ethersim::workload::{saturate, ttcp};
use pcap_file::pcapng::blocks::enhanced_packet::EnhancedPacketOption;
use pcap_file::pcapng::{Block, PcapNgReader};

fn load(path: &str, sets: &[&str]) -> Scenario {
    let overrides: Vec<Override> = sets
        .iter()
        .map(|s| Override::parse(s).expect("override"))
        .collect();
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    scenario::load(&p, &overrides).expect("scenario loads")
}

/// One block read back: timestamp ns, captured bytes, original length, flags, comment.
struct Rec {
    t: u64,
    data: Vec<u8>,
    orig: u32,
    flags: u32,
}

fn read_back(bytes: &[u8]) -> Vec<Rec> {
    let mut r = PcapNgReader::new(bytes).expect("a pcapng section");
    let mut out = Vec::new();
    while let Some(b) = r.next_block() {
        if let Block::EnhancedPacket(p) = b.expect("a valid block") {
            let flags = p
                .options
                .iter()
                .find_map(|o| match o {
                    EnhancedPacketOption::Flags(f) => Some(*f),
                    _ => None,
                })
                .unwrap_or(0);
            out.push(Rec {
                t: p.timestamp.as_nanos() as u64,
                data: p.data.to_vec(),
                orig: p.original_len,
                flags,
            });
        }
    }
    assert_eq!(r.interfaces().len(), 1, "one Ethernet interface");
    out
}

fn check_order(recs: &[Rec]) {
    assert!(
        recs.windows(2).all(|w| w[0].t <= w[1].t),
        "blocks in timestamp order"
    );
}

/// Counts what the model's stream itself says, independently of the pcap writer.
#[derive(Default)]
struct Count {
    starts: u64,
    jams: u64,
    rx_intact: u64,
    rx_damaged: u64,
}

impl Observer for Count {
    fn observe(&mut self, o: &Observation) {
        if let Observation::Wire { ev, .. } = o {
            match ev {
                WireEvent::TxStart { .. } => self.starts += 1,
                WireEvent::Jam { .. } => self.jams += 1,
                WireEvent::Rx { intact: true, .. } => self.rx_intact += 1,
                WireEvent::Rx { intact: false, .. } => self.rx_damaged += 1,
                _ => {}
            }
        }
    }
}

fn pcap_writer(bit_ns: u64) -> PcapWriter<Vec<u8>> {
    PcapWriter::new(
        Vec::new(),
        bit_ns,
        SimTime::ZERO,
        SimTime::from_nanos(u64::MAX),
        "test",
    )
    .expect("header")
}

#[test]
fn test_pcap_of_saturate_matches_counters() {
    let s = load(
        "scenarios/saturate.toml",
        &[
            "nodes.stations.count=6",
            "run.duration_s=0.2",
            "segment.corrupt_fraction=0.05",
        ],
    );
    let Workload::Saturate(w) = &s.workload else {
        panic!("saturate")
    };
    let mut pcap = pcap_writer(100);
    let r = saturate::run_observed(&w.config, &w.segment, s.seed, Some(&mut pcap));
    let (bytes, c) = pcap.finish().expect("written");
    let recs = read_back(&bytes);
    check_order(&recs);
    let e = &r.ether;
    assert_eq!(c.intact, e.frames_delivered);
    assert_eq!(c.damaged, e.frames_corrupted);
    assert_eq!(c.fragments, e.collisions);
    assert_eq!(c.jams, e.collisions);
    assert_eq!(
        recs.len() as u64,
        c.intact + c.damaged + c.fragments + c.jams + c.unresolved
    );
    let whole: Vec<&Rec> = recs.iter().filter(|r| r.data.len() == 1518).collect();
    assert_eq!(whole.len() as u64, c.intact + c.damaged + c.unresolved);
    for r in &whole {
        let fcs_ok = crc32(&r.data[..1514]).to_le_bytes() == r.data[1514..];
        assert_eq!(
            fcs_ok,
            r.flags & EPB_FLAG_CRC_ERROR == 0,
            "FCS matches the error flag"
        );
        assert_eq!(&r.data[12..14], &[0x88, 0xB6]);
    }
    for r in recs.iter().filter(|r| r.data.len() < 1518) {
        assert_ne!(r.flags & EPB_FLAG_CRC_ERROR, 0, "fragments and jams are flagged");
        assert!(r.orig == 1518 || r.orig == 4);
    }
    assert!(
        e.frames_corrupted > 0 && e.collisions > 0,
        "the test exercises both flags"
    );
}

#[test]
fn test_pcap_of_bulletin_run_matches_stream() {
    let s = load(
        "scenarios/bulletin/16bit-optimized.toml",
        &[
            "apps[0].block_sizes=[31744]",
            "run.warmup_s=0.1",
            "run.measure_s=0.3",
        ],
    );
    let mut pcap = pcap_writer(100);
    let mut count = Count::default();
    let out = {
        let mut tee = Tee(vec![&mut pcap, &mut count]);
        run::run_observed(&s, Some(&mut tee))
    };
    assert_eq!(out.points.len(), 1);
    let (bytes, c) = pcap.finish().expect("written");
    let recs = read_back(&bytes);
    check_order(&recs);
    assert_eq!(c.intact, count.rx_intact);
    assert_eq!(c.damaged, count.rx_damaged);
    assert_eq!(c.jams, count.jams);
    assert_eq!(count.starts, c.intact + c.damaged + c.fragments + c.unresolved);
    assert!(c.intact > 100, "{c:?}");
    // NetBIOS frames: EtherType 0x88B5, session header kind 0..=3
    for r in recs.iter().filter(|r| r.flags == 0) {
        assert_eq!(&r.data[12..14], &[0x88, 0xB5]);
        assert!(r.data[14] <= 3);
        assert_eq!(r.data.len() as u32, r.orig);
        assert!(r.data.len() >= 64 && r.data.len() <= 4318, "{}", r.data.len());
    }
}

/// The lengths of the NOS frames a run puts on the wire (first attempts), by packet kind,
/// and the bytes the hosts move.
#[derive(Default)]
struct NosLengths {
    responses: Vec<u32>,
    requests: Vec<u32>,
    acks: Vec<u32>,
    /// The bytes a driver copied into its card, frame by frame.
    copied: Vec<u32>,
    /// The bytes a receive interrupt copied out of the card.
    received: Vec<u32>,
}

impl Observer for NosLengths {
    fn observe(&mut self, o: &Observation) {
        match o {
            Observation::Wire {
                ev: WireEvent::TxStart {
                    frame, attempt: 1, ..
                },
                content: Content::Nos { packet, .. },
            } => match packet.kind {
                PacketKind::Response => self.responses.push(frame.wire_bytes()),
                PacketKind::Request => self.requests.push(frame.wire_bytes()),
                PacketKind::Ack | PacketKind::Nak => self.acks.push(frame.wire_bytes()),
            },
            Observation::Host(h) if h.kind == HostWorkKind::TxCopy => self.copied.push(h.bytes),
            Observation::Host(h) if h.kind == HostWorkKind::RxInterrupt => self.received.push(h.bytes),
            _ => {}
        }
    }
}

fn nos_lengths(transmit_length: &str) -> NosLengths {
    let set = format!("adapters.server.transmit_length={transmit_length}");
    let ws = format!("adapters.workstation.transmit_length={transmit_length}");
    let s = load(
        "scenarios/bulletin/16bit-optimized.toml",
        &[
            "apps[0].block_sizes=[23552]",
            "run.warmup_s=0.05",
            "run.measure_s=0.2",
            &set,
            &ws,
        ],
    );
    let mut l = NosLengths::default();
    let out = run::run_observed(&s, Some(&mut l));
    assert_eq!(out.points.len(), 1);
    l
}

#[test]
fn test_whole_buffers_lengthen_the_frames_on_the_wire_not_the_copies() {
    // 23552 bytes in 1668-byte packets: 14 full (1718-byte frames) and one of 200 bytes
    // (a 250-byte frame); a read request is 64 + 32 bytes (a 114-byte frame)
    let own = nos_lengths("frame");
    assert!(own.responses.iter().all(|&b| b == 1718 || b == 250));
    let last = own.responses.iter().filter(|&&b| b == 250).count();
    let full = own.responses.len() - last;
    assert!(
        last >= 5 && full >= 13 * last && full <= 16 * last,
        "{full} full, {last} last"
    );
    assert!(own.requests.iter().all(|&b| b == 114));

    // "data": every data packet leaves a large buffer long, requests and acks their own
    let data = nos_lengths("data");
    assert!(data.responses.len() > 5 * 15);
    assert!(data.responses.iter().all(|&b| b == 1718));
    assert!(data.requests.iter().all(|&b| b == 114));
    assert!(!data.acks.is_empty() && data.acks.iter().all(|&b| b == 64));
    // the drivers copy into the card, and out of it, only the bytes the frames have
    assert!(data.copied.contains(&250) && data.received.contains(&250));
    assert!(data
        .copied
        .iter()
        .chain(&data.received)
        .all(|&b| b == 1718 || b == 250 || b <= 114));

    // "message": the requests too; the acknowledgements still their own length
    let message = nos_lengths("message");
    assert!(!message.requests.is_empty() && message.requests.iter().all(|&b| b == 1718));
    assert!(message.responses.iter().all(|&b| b == 1718));
    assert!(!message.acks.is_empty() && message.acks.iter().all(|&b| b == 64));
    assert!(
        message.received.contains(&114),
        "the server copies a request's 114 bytes"
    );
}

#[test]
fn test_pcap_of_ttcp_has_valid_tcp() {
    let s = load(
        "scenarios/ttcp1995/ttcp-1995-smc-ultra-smc-ultra-transmit.toml",
        &["apps[0].nbuf=64"],
    );
    let Workload::Ttcp(w) = &s.workload else {
        panic!("ttcp")
    };
    let mut pcap = pcap_writer(100);
    let r = ttcp::run_observed(&w.config, s.seed, Some(&mut pcap)).expect("transfer finishes");
    let (bytes, c): (Vec<u8>, PcapCounts) = pcap.finish().expect("written");
    let recs = read_back(&bytes);
    check_order(&recs);
    assert_eq!(c.intact, r.ether.frames_delivered);
    assert_eq!(c.fragments, r.ether.collisions);
    let tx = w.config.transmitter;
    let mut data_bytes = std::collections::BTreeMap::new();
    for rec in recs.iter().filter(|r| r.flags == 0) {
        let d = &rec.data;
        assert_eq!(&d[12..14], &[0x08, 0x00], "IPv4");
        let ip = &d[14..34];
        assert!(checksum_ok(ip, 0), "IP header checksum");
        let total = u16::from_be_bytes([ip[2], ip[3]]) as usize;
        let tcp = &d[34..14 + total];
        let (src, dst) = (ip[15] as usize - 1, ip[19] as usize - 1);
        let ps = pseudo_header_sum(ipv4_address(src), ipv4_address(dst), tcp.len() as u16);
        assert!(checksum_ok(tcp, ps), "TCP checksum");
        let seq = u32::from_be_bytes([tcp[4], tcp[5], tcp[6], tcp[7]]);
        let len = tcp.len() - 20;
        if src == tx && len > 0 {
            data_bytes.insert(seq, len);
        }
    }
    let moved: usize = data_bytes.values().sum();
    assert_eq!(
        moved as u64,
        w.config.buflen as u64 * 64,
        "every byte once by sequence number"
    );
    // contiguous sequence space
    let mut next = *data_bytes.keys().next().expect("data");
    for (seq, len) in &data_bytes {
        assert_eq!(*seq, next);
        next = seq.wrapping_add(*len as u32);
    }

    // tshark, where installed
    match std::process::Command::new("tshark").arg("-v").output() {
        Ok(o) if o.status.success() => {
            let dir = tempfile::tempdir().expect("dir");
            let f = dir.path().join("ttcp.pcapng");
            std::fs::write(&f, &bytes).expect("write");
            let out = std::process::Command::new("tshark")
                .args(["-r"])
                .arg(&f)
                .args([
                    "-Y",
                    "_ws.malformed && !(frame.comment)",
                    "-T",
                    "fields",
                    "-e",
                    "frame.number",
                ])
                .output()
                .expect("tshark runs");
            assert!(
                String::from_utf8_lossy(&out.stdout).trim().is_empty(),
                "malformed frames"
            );
            let conv = std::process::Command::new("tshark")
                .arg("-r")
                .arg(&f)
                .args(["-q", "-z", "conv,tcp"])
                .output()
                .expect("tshark runs");
            let text = String::from_utf8_lossy(&conv.stdout);
            assert!(
                text.contains("10.0.0.1:1025") || text.contains("10.0.0.1:blackjack"),
                "{text}"
            );
        }
        _ => eprintln!("tshark is not installed: the tshark check was skipped"),
    }
}

/// Collects the host work on frames and the data frames of a ttcp run.
#[derive(Default)]
struct HostLog {
    work: Vec<HostWork>,
    /// Data frames (a segment with payload): their first attempts, and those received intact.
    data_tags: std::collections::BTreeSet<u64>,
    data_starts: Vec<(usize, u32)>,
    data_rx: Vec<(usize, u32)>,
}

impl Observer for HostLog {
    fn observe(&mut self, o: &Observation) {
        match o {
            Observation::Host(h) => self.work.push(*h),
            Observation::Wire {
                ev: WireEvent::TxStart { frame, attempt, .. },
                content: Content::Tcp { seg, .. },
            } if seg.len > 0 => {
                self.data_tags.insert(frame.tag);
                if *attempt == 1 {
                    self.data_starts.push((frame.src, frame.bytes));
                }
            }
            Observation::Wire {
                ev: WireEvent::Rx {
                    frame, intact: true, ..
                },
                ..
            } if self.data_tags.contains(&frame.tag) => self.data_rx.push((frame.dst, frame.bytes)),
            _ => {}
        }
    }
}

#[test]
fn test_ttcp_host_work_per_frame_adds_up_to_copy_time() {
    let s = load(
        "scenarios/ttcp1995/ttcp-1995-smc-ultra-smc-ultra-transmit.toml",
        &["apps[0].nbuf=16"],
    );
    let Workload::Ttcp(w) = &s.workload else {
        panic!("ttcp")
    };
    let mut log = HostLog::default();
    let r = ttcp::run_observed(&w.config, s.seed, Some(&mut log)).expect("transfer finishes");
    let (tx, rx) = (w.config.transmitter, 1 - w.config.transmitter);
    assert_eq!(
        log.data_starts.len() as u64,
        r.transmitter.node.conn.data_segments_sent
    );
    let records = |node: usize, kind: HostWorkKind| -> Vec<(usize, u32)> {
        let mut v: Vec<(usize, u32)> = log
            .work
            .iter()
            .filter(|h| h.node == node && h.kind == kind && h.src == tx)
            .inspect(|h| assert!(h.copy > SimDuration::ZERO, "{h:?}: a copy takes time"))
            .map(|h| (h.node, h.bytes))
            .collect();
        v.sort();
        v
    };
    // every data frame is copied into the transmitter's card once, before its first
    // attempt, and out of the receiver's card once per intact arrival
    let mut starts: Vec<(usize, u32)> = log.data_starts.clone();
    starts.sort();
    assert_eq!(records(tx, HostWorkKind::TxCopy), starts);
    let mut arrivals: Vec<(usize, u32)> = log.data_rx.clone();
    arrivals.sort();
    assert_eq!(records(rx, HostWorkKind::RxInterrupt), arrivals);
    assert!(log
        .work
        .iter()
        .filter(|h| h.kind == HostWorkKind::Build)
        .all(|h| h.cpu > SimDuration::ZERO));

    // the frames' copies and the socket calls' user-kernel copies (memcpy of every byte
    // written or read) are all of each CPU's copy time
    for (node, side) in [(tx, &r.transmitter), (rx, &r.receiver)] {
        let frames: u64 = log
            .work
            .iter()
            .filter(|h| h.node == node)
            .map(|h| h.copy.as_nanos())
            .sum();
        let calls = w.config.hosts[node].host.memcpy(side.bytes).as_nanos();
        let total = side.node.cpu.copy_ns;
        assert!(frames > 0);
        assert!(
            (frames + calls).abs_diff(total) <= side.node.cpu.jobs,
            "node {node}: frames {frames} ns + socket calls {calls} ns against {total} ns"
        );
    }
}

#[test]
fn test_two_station_collision_detected_after_propagation() {
    // stations 0 and 1 at the two ends of 185 m of thin coax, the sink beside station 1;
    // both start at time 0: each hears the other after 185 / (0.65 c) = 949 ns.
    let seg = SegmentConfig {
        positions_m: vec![0.0, 185.0, 185.0],
        velocity_factor: 0.65,
        bit_ns: 100,
        corrupt_fraction: 0.0,
    };
    let prop_ns = (185.0 / (0.65 * 299_792_458.0) * 1e9_f64).round() as u64;
    assert_eq!(prop_ns, 949);
    let cfg = saturate::SaturateConfig {
        senders: 2,
        frame_bytes: 64,
        destination: saturate::Destination::Sink,
        duration: SimDuration::from_micros(200),
    };
    #[derive(Default)]
    struct Log(Vec<WireEvent>);
    impl Observer for Log {
        fn observe(&mut self, o: &Observation) {
            if let Observation::Wire { ev, content } = o {
                assert_eq!(*content, Content::Opaque);
                self.0.push(*ev);
            }
        }
    }
    let mut log = Log::default();
    saturate::run_observed(&cfg, &seg, 1, Some(&mut log));
    let detect: Vec<(usize, u64)> = log
        .0
        .iter()
        .filter_map(|e| match e {
            WireEvent::Collision { at, station, .. } => Some((*station, at.as_nanos())),
            _ => None,
        })
        .take(2)
        .collect();
    assert_eq!(detect.len(), 2);
    for (_, t) in &detect {
        assert_eq!(*t, prop_ns, "detection at {detect:?}");
    }
    // the jam starts after the 64-bit preamble (6.4 us) and lasts 32 bits
    let jams: Vec<(u64, u64)> = log
        .0
        .iter()
        .filter_map(|e| match e {
            WireEvent::Jam { at, until, .. } => Some((at.as_nanos(), until.as_nanos())),
            _ => None,
        })
        .take(2)
        .collect();
    assert_eq!(jams, vec![(6_400, 9_600), (6_400, 9_600)]);
}

fn ethersim() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("ethersim").expect("the binary")
}

#[test]
fn test_cli_pcap_bad_input_leaves_no_file() {
    let dir = tempfile::tempdir().expect("dir");
    let pcap = dir.path().join("w.pcapng");
    let scen = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/saturate.toml");
    // a window after the run's end
    ethersim()
        .arg("run")
        .arg(&scen)
        .args(["--set", "run.duration_s=0.01", "--pcap"])
        .arg(&pcap)
        .args(["--pcap-window", "20ms..30ms"])
        .assert()
        .failure()
        .stderr(predicates::str::contains("after the end of the run"));
    // an unwritable path
    let bad = dir.path().join("missing").join("w.pcapng");
    ethersim()
        .arg("run")
        .arg(&scen)
        .args(["--set", "run.duration_s=0.01", "--events"])
        .arg(&bad)
        .assert()
        .failure()
        .stderr(predicates::str::contains("cannot write"));
    // a window that is no window
    ethersim()
        .arg("run")
        .arg(&scen)
        .arg("--pcap")
        .arg(&pcap)
        .args(["--pcap-window", "3ms..1ms"])
        .assert()
        .failure()
        .stderr(predicates::str::contains("TO (1 ms) must be after FROM (3 ms)"));
    assert_eq!(
        std::fs::read_dir(dir.path()).expect("dir").count(),
        0,
        "no file left"
    );
    // a good run writes both files, and the results are those of a run without them
    let events = dir.path().join("e.jsonl");
    let with = ethersim()
        .arg("run")
        .arg(&scen)
        .args(["--set", "run.duration_s=0.01", "--format", "json", "-q", "--pcap"])
        .arg(&pcap)
        .arg("--events")
        .arg(&events)
        .args(["--pcap-window", "1ms..5ms"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let without = ethersim()
        .arg("run")
        .arg(&scen)
        .args(["--set", "run.duration_s=0.01", "--format", "json", "-q"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(with, without, "observing does not change the run");
    let recs = read_back(&std::fs::read(&pcap).expect("pcap"));
    assert!(!recs.is_empty());
    assert!(
        recs.iter().all(|r| (1_000_000..5_000_000).contains(&r.t)),
        "inside the window"
    );
    let text = std::fs::read_to_string(&events).expect("events");
    let first: serde_json::Value = serde_json::from_str(text.lines().next().expect("header")).expect("json");
    assert_eq!(first["version"], 1);
    assert!(text
        .lines()
        .skip(1)
        .all(|l| serde_json::from_str::<serde_json::Value>(l).is_ok()));
}

#[test]
fn test_cli_pcap_list_of_bulletin_run() {
    let dir = tempfile::tempdir().expect("dir");
    let pcap = dir.path().join("b.pcapng");
    let scen = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/bulletin/16bit-optimized.toml");
    ethersim()
        .arg("run")
        .arg(&scen)
        .args(["--quiet", "--set", "apps[0].block_sizes=[1024]"])
        .args(["--set", "run.warmup_s=0.05", "--set", "run.measure_s=0.1"])
        .arg("--pcap")
        .arg(&pcap)
        .assert()
        .success();
    let bytes = std::fs::read(&pcap).expect("the capture");
    let recs = read_back(&bytes);
    let out = ethersim().arg("pcap-list").arg(&pcap).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).expect("utf-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), recs.len(), "one line per frame");
    // the first line: number, time, source and destination, type, length, Info
    let first = &recs[0];
    let f: Vec<&str> = lines[0].split_whitespace().collect();
    let mac = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<Vec<_>>().join(":");
    assert_eq!(f[0], "1");
    assert_eq!(
        f[1],
        format!("{}.{:09}", first.t / 1_000_000_000, first.t % 1_000_000_000)
    );
    assert_eq!(f[2], mac(&first.data[6..12]));
    assert_eq!(f[3], "→");
    assert_eq!(f[4], mac(&first.data[0..6]));
    assert_eq!(f[5], "0x88b5");
    assert_eq!(f[6], first.orig.to_string());
    assert_eq!(f[7], "NetBIOS");
    assert_eq!(f[8], "request", "a workstation's first packet is a request");
    // every frame cut short by a collision says so
    let cut = recs.iter().filter(|r| r.flags & EPB_FLAG_CRC_ERROR != 0).count();
    assert_eq!(lines.iter().filter(|l| l.contains("[CRC error]")).count(), cut);
    // --count, and a file that is not a capture
    let out = ethersim()
        .arg("pcap-list")
        .arg(&pcap)
        .args(["--count", "12"])
        .assert()
        .success();
    assert_eq!(
        String::from_utf8_lossy(&out.get_output().stdout).lines().count(),
        12
    );
    ethersim()
        .arg("pcap-list")
        .arg(&scen)
        .assert()
        .failure()
        .stderr(predicates::str::contains("not a pcapng capture"));
}

#[test]
fn test_cli_pcap_list_refuses_devices_and_fifos_at_once() {
    let dir = tempfile::tempdir().expect("dir");
    // /dev/zero would never end; a FIFO without a writer would block the opening
    let fifo = dir.path().join("fifo.pcapng");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    let mut paths = vec![Path::new("/dev/zero").to_path_buf(), dir.path().to_path_buf()];
    if made.is_ok_and(|s| s.success()) {
        paths.push(fifo);
    }
    for p in paths {
        ethersim()
            .arg("pcap-list")
            .arg(&p)
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .failure()
            .stderr(predicates::str::contains("not a regular file"));
    }
}

#[test]
fn test_cli_pcap_list_refuses_oversized_file() {
    let dir = tempfile::tempdir().expect("dir");
    let big = dir.path().join("big.pcapng");
    // sparse: no disk blocks behind the length
    let f = std::fs::File::create(&big).expect("file");
    f.set_len(ethersim::report::pcap_listing::MAX_CAPTURE_BYTES + 1)
        .expect("length");
    drop(f);
    ethersim()
        .arg("pcap-list")
        .arg(&big)
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .failure()
        .stderr(predicates::str::contains(
            "more than the 1073741824 listed at most",
        ));
}
