//! The Temporal SDK's async entry points that gtms awaits, behind functions that return boxed
//! futures.
//!
//! An `async fn` of a dependency is compiled in the crate that polls its future, not in the
//! dependency: awaiting `Connection::connect` in the gtms crate made it compile the whole gRPC
//! client (every service method of every Temporal service, ~20 % of that crate's code generation).
//! Boxing the future here makes this small crate, which builds beside the rest of the SDK, compile
//! those bodies once; gtms only calls through the box.

use futures_util::FutureExt;
use futures_util::future::{BoxFuture, LocalBoxFuture};
use temporalio_client::errors::ClientConnectError;
use temporalio_client::grpc::WorkflowService;
use temporalio_client::tonic::{Request, Response, Status};
use temporalio_client::{Connection, ConnectionOptions};
use temporalio_common::protos::temporal::api::workflowservice::v1::{GetSystemInfoRequest, GetSystemInfoResponse};
use temporalio_sdk::{Worker, WorkerRunError};

/// `Connection::connect`.
pub fn connect(options: ConnectionOptions) -> BoxFuture<'static, Result<Connection, ClientConnectError>> {
    Connection::connect(options).boxed()
}

/// One `GetSystemInfo` call: the cheapest request that shows the frontend answers.
pub fn system_info(mut connection: Connection) -> BoxFuture<'static, Result<Response<GetSystemInfoResponse>, Status>> {
    async move { connection.get_system_info(Request::new(GetSystemInfoRequest::default())).await }.boxed()
}

/// `Worker::run` (its future is not `Send`).
pub fn run(worker: &mut Worker) -> LocalBoxFuture<'_, Result<(), WorkerRunError>> {
    worker.run().boxed_local()
}
