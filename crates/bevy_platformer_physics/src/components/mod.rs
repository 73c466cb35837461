//! Components of the plugin. Units are pixels, seconds and y up throughout.

mod body;
mod climb;
mod collider;
mod contacts;
mod fluid;
mod layers;
mod motion;
mod path;
mod slope;

pub use body::{BodyCollisions, BodyKind, CollisionMode, Dynamic, Embedded, Frozen, Kinematic};
pub use climb::{ClimbState, Climber, Ladder};
pub use collider::{Collider, ColliderDisabled, InvalidBody, OneWayPlatform, Sensor};
pub use contacts::{Contact, ContactDirection, Contacts, Grounded};
pub use fluid::{FluidZone, InFluid};
pub use layers::{CollisionLayers, LayerMask, PhysicsLayer};
pub use motion::{
    JumpState, JumpTuning, LiftMomentum, LiftRide, MovementInput, MovementState, MovementTuning, Velocity,
    WallJumpTuning,
};
pub use path::{PathFollower, PathMode};
pub use slope::{MaxClimbableGradient, SlopeRef, SlopeSegment};
