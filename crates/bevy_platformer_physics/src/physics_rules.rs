//! The physics rules: every rule the plugin implements, with its tolerances, stated in one
//! document (the file `docs/physics-rules.md` of this crate). The code cites its sections by
//! number and title.
#![doc = include_str!("../docs/physics-rules.md")]
