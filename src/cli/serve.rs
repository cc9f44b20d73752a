//! `gtms serve`: the configuration from every layer, then the appliance until a signal.

use super::{CliError, ServeArgs, load_config, runtime};
use crate::config::Layer;
use crate::{app, telemetry};

pub(super) fn serve(args: ServeArgs) -> Result<(), CliError> {
    let flags = Layer {
        listen: args.listen,
        tls_cert: args.tls_cert,
        tls_key: args.tls_key,
        mode: args.mode,
        log_format: args.log_format,
        ..args.data.layer()
    };
    let config = load_config(args.data.config.as_ref(), flags).map_err(CliError::runtime)?;
    telemetry::init(config.log_format, &config.log_level);
    tracing::debug!(?config, "configuration");
    runtime()?.block_on(app::run(config)).map_err(CliError::runtime)
}
