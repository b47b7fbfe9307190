//! The core the run's figures are held against: recognised from the CPU
//! identity its first native worker recorded, or named by the user
//! (`advise --core`, for runs that do not record it or a hypervisor that
//! hides it), and the figures published for it.

use cryptobench_core::result::RunResult;
use cryptobench_cpu::microarch::{self, Microarch};

use crate::table::{self, Entry};

#[derive(Debug, Clone)]
pub struct Core {
    pub microarch: Option<&'static Microarch>,
    /// How it was found ("from CPUID family 25 model 1", "given with --core").
    pub how: String,
    /// The worker ran under an emulator: its figures describe the emulator.
    pub emulated_by: Option<String>,
}

impl Core {
    pub fn describe(&self) -> String {
        let mut s = match self.microarch {
            Some(m) => format!("{} ({})", m.name, self.how),
            None => format!("not recognised ({})", self.how),
        };
        if let Some(e) = &self.emulated_by {
            s.push_str(&format!("; the workers ran under {e}, so their figures describe the emulator"));
        }
        s
    }

    /// Every figure published for this core's own generation, lowest cycles first.
    pub fn own(&self, algorithm: &str, operation: Option<&str>) -> Vec<&'static Entry> {
        self.microarch
            .map(|m| table::for_core(algorithm, operation, &m.id))
            .unwrap_or_default()
    }

    /// Where this core has no figure: the nearest earlier core of its line
    /// that has one, its best figure and how the two cores differ. Shown for
    /// reference only; no distance is ever drawn from it.
    pub fn stand_in(&self, algorithm: &str, operation: Option<&str>) -> Option<StandIn> {
        let m = self.microarch?;
        let nearest = microarch::find(m.nearest_published.as_deref()?)?;
        let entry = table::best_for(algorithm, operation, &nearest.id)?;
        Some(StandIn {
            core: nearest,
            entry,
            differs: m.differs_from_nearest.clone().unwrap_or_default(),
        })
    }
}

/// Another generation's figure, with how its core differs from this one.
#[derive(Debug, Clone)]
pub struct StandIn {
    pub core: &'static Microarch,
    pub entry: &'static Entry,
    pub differs: String,
}

/// The core of the run: `given`, or recognised from the first worker that recorded its CPU.
pub fn of_run(run: &RunResult, given: Option<&'static Microarch>) -> Core {
    // The worker whose CPU is described: the first that recorded its identity, else the first at all.
    let platform = run
        .configurations
        .iter()
        .filter_map(|c| c.platform.as_ref())
        .find(|p| p.cpu_identity.is_some())
        .or_else(|| run.configurations.iter().find_map(|c| c.platform.as_ref()));
    let emulated_by = platform.and_then(|p| p.emulated_by.clone());
    if let Some(m) = given {
        return Core {
            microarch: Some(m),
            how: "given with --core".into(),
            emulated_by,
        };
    }
    let identity = platform.and_then(|p| p.cpu_identity.as_ref().map(|id| (id, p.arch.as_str())));
    match identity {
        Some((id, arch)) => {
            let how = match (id.family, id.model, id.implementer, id.part) {
                (Some(f), Some(m), _, _) => format!("CPUID family {f:#x} model {m:#x}, {}", id.source),
                (_, _, Some(i), Some(p)) => format!("MIDR implementer {i:#x} part {p:#x}, {}", id.source),
                _ => id.source.clone(),
            };
            Core {
                microarch: microarch::recognise(id, arch),
                how,
                emulated_by,
            }
        }
        None => Core {
            microarch: None,
            how: "the run records no CPU identity; name the core with --core".into(),
            emulated_by,
        },
    }
}
