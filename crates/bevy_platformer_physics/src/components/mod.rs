//! Components of the plugin. Units are pixels, seconds and y up throughout.

mod body;
mod collider;
mod contacts;
mod motion;
mod path;

pub use body::{CollisionMode, Dynamic, Embedded, Frozen, Kinematic};
pub use collider::{Collider, CollisionLayers, InvalidBody, OneWayPlatform, Sensor};
pub use contacts::{Contact, ContactDirection, Contacts};
pub use motion::{Movement, MovementInput, MovementState, Velocity};
pub use path::{PathFollower, PathMode};
