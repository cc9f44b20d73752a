# gtms in a container with nothing else in it: the static binary from `make dist`.
#   make dist && docker build -t gtms .
#   docker run -d --name gtms -p 3000:3000 -v gtms-data:/data gtms
# The binary needs no libc, shell or certificates to serve; settings come from GTMS_*
# variables (README, Configuration), e.g. -e GTMS_MODE=temporal.
FROM scratch

COPY dist/gtms /gtms
COPY --chown=65532:65532 packaging/container-data/ /data/

ENV GTMS_LISTEN=0.0.0.0:3000 \
    GTMS_DATA=/data/gtms.redb \
    GTMS_BACKUP_DIR=/data/backups \
    GTMS_LOG_FORMAT=json

USER 65532:65532
WORKDIR /data
VOLUME ["/data"]
EXPOSE 3000

# `gtms status` asks the running server over its admin socket beside the data file.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s CMD ["/gtms", "status"]

# Exec form: gtms is PID 1 and handles SIGTERM itself (docker stop drains and exits 0).
ENTRYPOINT ["/gtms"]
CMD ["serve"]
