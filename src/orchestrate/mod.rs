//! The orchestrator: turns a command's arguments into a plan of
//! configurations and cells, starts one worker per configuration (the
//! `worker` subcommand of crates/worker, or the configuration's own worker
//! command), reads what it sends, and assembles the run.

pub mod arch;
pub mod audit_masks;
pub mod core_classes;
pub mod cross_check;
pub mod execute;
pub mod group_cells;
pub mod history;
pub mod merge;
pub mod placement;
pub mod plan;
pub mod plan_pk;
pub mod replicate_figures;
pub mod rescue;
pub mod schedule;
pub mod speed_set;
pub mod store;
pub mod sysroot;
pub mod targets;
pub mod uml;
pub mod warnings;
pub mod worker_client;
pub mod worker_group;
