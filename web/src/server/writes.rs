//! The writes both doors make — the pages' forms and the JSON API — each checking the role,
//! then running its application command (`crate::app::commands`, the accounts, the signing of
//! checkpoints) on the writer thread. They live here so that neither door calls the other.

use actix_web::web;
use ledger::signing::Checkpoint;
use ledger::OfficialId;
use serde::Deserialize;
use uuid::Uuid;

use crate::app::accounts::officials::OfficialListing;
use crate::app::commands::count::{self, RecordCount};
use crate::app::commands::hand::{self, CorrectHand, CorrectionPreview, RecordHand};
use crate::app::commands::ruling::{self, Appeal, RaiseDispute, Rule, RulingPreview};
use crate::app::commands::tournament::{self, NewTournament};
use crate::server::auth::{self, Official};
use crate::server::error::AppError;
use crate::server::officials::{self, Change};
use crate::server::roles::Action;
use crate::server::state::AppState;

/// Records a hand (shared with the API).
pub async fn record_hand(
    state: &web::Data<AppState>,
    o: &Official,
    table: String,
    command: RecordHand,
) -> Result<String, AppError> {
    // The role, and whether the table is open, are decided with the write (the role checked
    // again there, the table's status by the referee's table), so nothing can slip between.
    o.require_role(Action::RecordHand)?;
    let by = o.clone();
    let stream = state
        .write(move |l| hand::record(l, &table, &by, &command))
        .await?;
    Ok(stream.id().to_owned())
}

/// Records a correction, or previews it (shared with the API).
pub async fn correct_hand(
    state: &web::Data<AppState>,
    o: &Official,
    hand: String,
    command: CorrectHand,
) -> Result<(String, Option<CorrectionPreview>), AppError> {
    o.require_role(Action::CorrectHand)?;
    let by = o.clone();
    let (stream, preview) = state
        .write(move |l| hand::correct(l, &hand, &by, &command))
        .await?;
    Ok((stream.id().to_owned(), preview))
}

/// Creates a tournament (shared with the API).
pub async fn create_tournament(
    state: &web::Data<AppState>,
    o: &Official,
    command: NewTournament,
) -> Result<String, AppError> {
    let officials = state.auth(auth::list_officials).await?;
    let by = o.clone();
    let stream = state
        .write(move |l| tournament::create(l, &officials, &by, &command))
        .await?;
    Ok(stream.id().to_owned())
}

/// Create an official (the administrator only). The same fields come from the form and the
/// API; anything else is refused rather than ignored.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewOfficial {
    #[serde(default)]
    pub csrf: String,
    #[serde(default)]
    pub official: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub role: String,
    #[serde(default)]
    pub password: String,
}

/// Creates the official and records `OfficialRegistered` in every tournament.
pub async fn add_official(
    state: &web::Data<AppState>,
    by: &Official,
    form: NewOfficial,
) -> Result<OfficialListing, AppError> {
    by.require_role(Action::ManageOfficials)?;
    let id = OfficialId::new(form.official.trim())
        .map_err(|e| AppError::unprocessable(format!("id: {e}")))?;
    let role = auth::parse_role(form.role.trim())?;
    let listing = OfficialListing {
        official: id.to_string(),
        name: form.name.trim().to_owned(),
        role: form.role.trim().to_owned(),
        is_admin: false,
        disabled: false,
    };
    let name = listing.name.clone();
    if !auth::password_long_enough(&form.password) {
        return Err(AppError::unprocessable(auth::too_short()));
    }
    let password = form.password;
    let hash = state
        .password_check(move || auth::hash_password(&password))
        .await??;
    let creator = by.id.clone();
    state
        .write(move |ledger| {
            auth::create_official_hashed(ledger, &creator, &id, &name, role, false, &hash)
        })
        .await?;
    let (l, by) = (listing.clone(), by.clone());
    state
        .write(move |ledger| tournament::register_official_everywhere(ledger, &l, &by))
        .await?;
    Ok(listing)
}

/// Records a count (shared with the API).
pub async fn record_count(
    state: &web::Data<AppState>,
    o: &Official,
    hand: String,
    command: RecordCount,
) -> Result<(), AppError> {
    o.require_role(Action::RecordHand)?;
    let by = o.clone();
    state
        .write(move |l| count::record(l, &hand, &by, &command))
        .await?;
    Ok(())
}

/// Signs a checkpoint of the chain head now, recorded as `by`'s.
pub async fn sign_now(state: &web::Data<AppState>, by: &Official) -> Result<Checkpoint, AppError> {
    let key = state.ledger_key();
    let who = by.id.clone();
    let checkpoint = state
        .write(move |l| Ok(l.sign_checkpoint(&key, &who)?))
        .await?;
    tracing::info!(by = %by.id, position = checkpoint.position, "checkpoint signed");
    Ok(checkpoint)
}

/// Raises a dispute (shared with the API); returns its id.
pub async fn raise_dispute(
    state: &web::Data<AppState>,
    o: &Official,
    hand: String,
    command: RaiseDispute,
) -> Result<Uuid, AppError> {
    o.require_role(Action::Rule)?;
    let by = o.clone();
    let (_, id) = state
        .write(move |l| ruling::raise(l, &hand, &by, &command))
        .await?;
    Ok(id)
}

/// Rules on a dispute, or previews the ruling (shared with the API).
pub async fn rule_on(
    state: &web::Data<AppState>,
    o: &Official,
    hand: String,
    dispute: Uuid,
    command: Rule,
) -> Result<Option<RulingPreview>, AppError> {
    o.require_role(Action::Rule)?;
    let by = o.clone();
    let (_, preview) = state
        .write(move |l| ruling::rule(l, &hand, dispute, &by, &command))
        .await?;
    Ok(preview)
}

/// Supersedes a ruling on appeal (shared with the API).
pub async fn appeal_ruling(
    state: &web::Data<AppState>,
    o: &Official,
    hand: String,
    ruling: Uuid,
    command: Appeal,
) -> Result<Option<RulingPreview>, AppError> {
    o.require_role(Action::Rule)?;
    let by = o.clone();
    let (_, preview) = state
        .write(move |l| ruling::appeal(l, &hand, ruling, &by, &command))
        .await?;
    Ok(preview)
}

/// Runs one of the administrator's changes on official `id`: the role, the rights to manage
/// officials, a new password. Shared by the forms and the API.
pub async fn manage(
    state: &web::Data<AppState>,
    by: &Official,
    id: String,
    change: Change,
) -> Result<OfficialListing, AppError> {
    by.require_role(Action::ManageOfficials)?;
    let who = by.id.clone();
    let listing = state
        .write(move |ledger| officials::apply(ledger, &who, &id, change))
        .await?;
    tracing::info!(by = %by.id, official = %listing.official, change = ?change, "official changed");
    Ok(listing)
}

/// Sets official `id`'s password (the administrator only); their sessions end.
pub async fn reset(
    state: &web::Data<AppState>,
    by: &Official,
    id: String,
    password: String,
) -> Result<OfficialListing, AppError> {
    by.require_role(Action::ManageOfficials)?;
    if !auth::password_long_enough(&password) {
        return Err(AppError::unprocessable(auth::too_short()));
    }
    let hash = state
        .password_check(move || auth::hash_password(&password))
        .await??;
    let who = by.id.clone();
    let listing = state
        .write(move |ledger| {
            auth::set_password_hash(ledger, &who, &id, &hash)?;
            auth::official_listing(ledger.connection(), &id)
        })
        .await?;
    tracing::info!(by = %by.id, official = %listing.official, "password reset");
    Ok(listing)
}
