//! Names of arm cores by their MIDR_EL1 implementer and part number, as
//! /proc/cpuinfo gives them ("CPU implementer", "CPU part") and
//! `regs/identification/midr_el1` holds them (implementer bits 31:24, part
//! bits 15:4; Arm Architecture Reference Manual, register MIDR_EL1). The
//! numbers are those of the Linux kernel's arch/arm64/include/asm/cputype.h
//! (ARM_CPU_PART_*, QCOM_CPU_PART_*, APPLE_CPU_PART_*, NVIDIA_CPU_PART_*).

/// (implementer, part, name).
const PARTS: &[(u32, u32, &str)] = &[
    (0x41, 0xd03, "Cortex-A53"),
    (0x41, 0xd04, "Cortex-A35"),
    (0x41, 0xd05, "Cortex-A55"),
    (0x41, 0xd07, "Cortex-A57"),
    (0x41, 0xd08, "Cortex-A72"),
    (0x41, 0xd09, "Cortex-A73"),
    (0x41, 0xd0a, "Cortex-A75"),
    (0x41, 0xd0b, "Cortex-A76"),
    (0x41, 0xd0c, "Neoverse-N1"),
    (0x41, 0xd0d, "Cortex-A77"),
    (0x41, 0xd0e, "Cortex-A76AE"),
    (0x41, 0xd40, "Neoverse-V1"),
    (0x41, 0xd41, "Cortex-A78"),
    (0x41, 0xd42, "Cortex-A78AE"),
    (0x41, 0xd44, "Cortex-X1"),
    (0x41, 0xd46, "Cortex-A510"),
    (0x41, 0xd47, "Cortex-A710"),
    (0x41, 0xd48, "Cortex-X2"),
    (0x41, 0xd49, "Neoverse-N2"),
    (0x41, 0xd4b, "Cortex-A78C"),
    (0x41, 0xd4d, "Cortex-A715"),
    (0x41, 0xd4e, "Cortex-X3"),
    (0x41, 0xd4f, "Neoverse-V2"),
    (0x41, 0xd80, "Cortex-A520"),
    (0x41, 0xd81, "Cortex-A720"),
    (0x41, 0xd82, "Cortex-X4"),
    (0x41, 0xd84, "Neoverse-V3"),
    (0x41, 0xd85, "Cortex-X925"),
    (0x41, 0xd87, "Cortex-A725"),
    (0x4e, 0x004, "NVIDIA Carmel"),
    (0x51, 0x800, "Kryo 2XX Gold"),
    (0x51, 0x801, "Kryo 2XX Silver"),
    (0x51, 0x803, "Kryo 3XX Silver"),
    (0x51, 0x804, "Kryo 4XX Gold"),
    (0x51, 0x805, "Kryo 4XX Silver"),
    (0x51, 0xc00, "Qualcomm Falkor"),
    (0x61, 0x022, "Apple M1 Icestorm"),
    (0x61, 0x023, "Apple M1 Firestorm"),
    (0x61, 0x024, "Apple M1 Pro Icestorm"),
    (0x61, 0x025, "Apple M1 Pro Firestorm"),
    (0x61, 0x028, "Apple M1 Max Icestorm"),
    (0x61, 0x029, "Apple M1 Max Firestorm"),
    (0x61, 0x032, "Apple M2 Blizzard"),
    (0x61, 0x033, "Apple M2 Avalanche"),
];

/// The core's name, or "arm core 0x41:0xd0f" for a part not in the table.
pub fn name(implementer: u32, part: u32) -> String {
    PARTS
        .iter()
        .find(|(i, p, _)| *i == implementer && *p == part)
        .map(|(_, _, n)| n.to_string())
        .unwrap_or_else(|| format!("arm core {implementer:#04x}:{part:#05x}"))
}

/// Implementer and part from a MIDR_EL1 value.
pub fn from_midr(midr: u64) -> (u32, u32) {
    (((midr >> 24) & 0xff) as u32, ((midr >> 4) & 0xfff) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_midr_fields() {
        assert_eq!(name(0x41, 0xd05), "Cortex-A55");
        assert_eq!(name(0x41, 0xd0b), "Cortex-A76");
        assert_eq!(name(0x41, 0xfff), "arm core 0x41:0xfff");
        // A Cortex-A76 r4p0: implementer 0x41, variant 4, architecture 0xf, part 0xd0b, revision 0.
        assert_eq!(from_midr(0x0000_0000_414f_d0b0), (0x41, 0xd0b));
    }
}
