//! `/api/brain/chat` and `/api/brain/history` (GET, DELETE): thin routes over `brain::chat`.
//! Both roles may chat and clear their own thread; a thread belongs to the token's `sub`.

use warp::{Filter, Rejection, Reply};

use super::error::ApiError;
use super::filters::json_body;
use super::session::require;
use crate::auth::Principal;
use crate::brain::chat::{self, ChatRequest};
use crate::domain::Role;
use crate::state::AppState;

fn reject(e: chat::BrainError) -> Rejection {
    warp::reject::custom(ApiError::from(e))
}

pub fn routes(state: AppState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let with_state = {
        let s = state.clone();
        warp::any().map(move || s.clone())
    };
    let user = require(state, Role::Viewer);
    let send = warp::path!("api" / "brain" / "chat")
        .and(warp::post())
        .and(user.clone())
        .and(json_body::<ChatRequest>())
        .and(with_state.clone())
        .and_then(|principal: Principal, request: ChatRequest, state: AppState| async move {
            let workspace = state.brain_workspace(&request.message).await;
            let reply = chat::chat(
                state.store(),
                state.llm(),
                state.directory(),
                &principal,
                &request.message,
                &workspace,
                &state.config().budgets,
            )
            .await
            .map_err(reject)?;
            Ok::<_, Rejection>(warp::reply::json(&reply))
        });
    let history =
        warp::path!("api" / "brain" / "history").and(warp::get()).and(user.clone()).and(with_state.clone()).and_then(
            |principal: Principal, state: AppState| async move {
                let history = chat::history(state.store(), &principal).await.map_err(reject)?;
                Ok::<_, Rejection>(warp::reply::json(&history))
            },
        );
    let clear = warp::path!("api" / "brain" / "history").and(warp::delete()).and(user).and(with_state).and_then(
        |principal: Principal, state: AppState| async move {
            let cleared = chat::clear(state.store(), &principal).await.map_err(reject)?;
            Ok::<_, Rejection>(warp::reply::json(&cleared))
        },
    );
    send.or(history).or(clear)
}
