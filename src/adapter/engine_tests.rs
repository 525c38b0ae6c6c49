//! Timing of each copy engine, by hand, on buses of known timing.

use super::bus::{HostBus, IsaBus, IsaPath, PciBus};
use super::*;

fn bus_486() -> HostBus {
    HostBus {
        isa: IsaBus {
            path: IsaPath::Chipset,
            clock_mhz: 8.0,
        },
        pci: None,
    }
}

fn bus_p90() -> HostBus {
    HostBus {
        isa: IsaBus {
            path: IsaPath::PciBridge { bridge_ns: 100.0 },
            clock_mhz: 8.0,
        },
        pci: Some(PciBus {
            clock_mhz: 25.0,
            bytes_per_clock: 4.0,
        }),
    }
}

fn card(copy: CopyEngine, ram: u32, page: u32) -> AdapterProfile {
    AdapterProfile {
        name: "t".into(),
        bus_width_bits: 16,
        copy,
        card_ram_bytes: ram,
        page_bytes: page,
        transmit_buffers: 16,
        packet_size: 1500,
    }
}

fn c3c509(bus: &HostBus) -> AdapterProfile {
    let copy = CopyEngine::FifoPio {
        access_ns: bus.isa_access_ns(4.0),
        setup_ns: 2_000.0,
        tx_fifo_bytes: 2048,
        rx_fifo_bytes: 4096,
    };
    card(copy, 8192, 256)
}

#[test]
fn test_fifo_pio_copy_is_words_times_io_access() {
    // 1494-byte frame: 747 16-bit accesses of 500 ns (4 clocks at 8 MHz) + 2 us
    let a = c3c509(&bus_486());
    assert_eq!(a.tx_copy_time(1494), SimDuration::from_nanos(2_000 + 747 * 500));
    assert_eq!(a.rx_copy_time(1494), a.tx_copy_time(1494));
    // behind the PCI-ISA bridge every access pays 100 ns more
    let b = c3c509(&bus_p90());
    assert_eq!(b.tx_copy_time(1494), SimDuration::from_nanos(2_000 + 747 * 600));
}

#[test]
fn test_fifo_holds_one_full_frame() {
    let a = c3c509(&bus_486());
    assert_eq!(a.tx_slots(), 1, "a 2 KB transmit FIFO holds one 1518-byte frame");
    assert_eq!(a.rx_pages(), 16);
    let mut ad = Adapter::new(a);
    for _ in 0..2 {
        assert!(ad.arrive(&Frame {
            src: 0,
            dst: 1,
            bytes: 1494,
            tag: 0,
            pad: 0,
        }));
    }
    assert!(
        !ad.arrive(&Frame {
            src: 0,
            dst: 1,
            bytes: 1494,
            tag: 0,
            pad: 0,
        }),
        "4 KB receive FIFO: two frames"
    );
}

#[test]
fn test_shared_memory_copy_is_words_times_memory_access() {
    let bus = bus_486();
    let copy = CopyEngine::SharedMemory {
        access_ns: bus.isa_access_ns(3.0),
        setup_ns: 1_000.0,
        tx_buffers: 2,
    };
    let a = card(copy, 16 * 1024, 256);
    assert_eq!(a.tx_copy_time(1494), SimDuration::from_nanos(1_000 + 747 * 375));
    assert_eq!(a.tx_slots(), 2, "ping-pong transmit buffers");
    assert_eq!(a.rx_pages(), 64 - 2 * 6, "the rest of 16 KB, in 256-byte pages");
}

#[test]
fn test_bus_master_costs_the_cpu_set_up_and_the_receive_copy() {
    let bus = bus_p90();
    assert_eq!(bus.pci_ns_per_byte(), Some(10.0));
    let copy = CopyEngine::BusMaster {
        setup_ns: 3_000.0,
        rx_copy_ns_per_byte: 20.0,
        tx_ring: 16,
        rx_ring: 16,
    };
    let a = card(copy, 0, 1544);
    assert_eq!(
        a.tx_copy_time(1494),
        SimDuration::from_nanos(3_000),
        "the card fetches the data itself"
    );
    assert_eq!(a.rx_copy_time(1494), SimDuration::from_nanos(3_000 + 1494 * 20));
    assert_eq!(a.tx_slots(), 16);
    assert_eq!(a.rx_pages(), 16, "one 1544-byte ring buffer per frame");
}

#[test]
fn test_unibus_dma_timing_by_hand() {
    // 1082 bytes = 541 words; at 750 ns a word and 4-word bursts with 1.5 us of
    // arbitration each: 541 x 0.75 + 136 x 1.5 = 405.75 + 204 = 609.75 us
    let d = DmaTiming {
        word_ns: 750.0,
        burst_words: 4,
        burst_overhead_ns: 1500.0,
    };
    assert_eq!(d.time(1082), SimDuration::from_nanos(609_750));
    // 16-word bursts: 34 bursts, 405.75 + 51 = 456.75 us; one word per grant: 1217.25 us
    assert_eq!(
        DmaTiming { burst_words: 16, ..d }.time(1082),
        SimDuration::from_nanos(456_750)
    );
    assert_eq!(
        DmaTiming { burst_words: 1, ..d }.time(1082),
        SimDuration::from_nanos(1_217_250)
    );
    // an odd byte still moves a whole word
    assert_eq!(d.time(3), SimDuration::from_nanos(1_500 + 1_500));
    let card = AdapterProfile {
        name: "EXOS 204".into(),
        bus_width_bits: 16,
        copy: CopyEngine::UnibusDma {
            setup_ns: 100_000.0,
            request_ns: 300_000.0,
            dma: Some(d),
            tx_slots: 1,
            rx_bytes: 8192,
            command: None,
            queue: None,
        },
        card_ram_bytes: 8192,
        page_bytes: 256,
        transmit_buffers: 50,
        packet_size: 1500,
    };
    // the CPU pays the driver and the message queue; the DMA is the card's
    assert_eq!(card.tx_copy_time(1082), SimDuration::from_micros(400));
    assert_eq!(card.rx_copy_time(1082), SimDuration::from_micros(400));
    assert_eq!(card.dma_time(1082), Some(SimDuration::from_nanos(609_750)));
    assert_eq!(card.tx_slots(), 1);
    assert_eq!(card.rx_pages(), 32);
    let pcl = AdapterProfile {
        copy: CopyEngine::UnibusDma {
            setup_ns: 0.0,
            request_ns: 0.0,
            dma: None,
            tx_slots: 1,
            rx_bytes: 2048,
            command: None,
            queue: None,
        },
        ..card
    };
    assert_eq!(pcl.dma_time(1004), None, "the PCL's DMA is its transmission");
}
