# Hinge — multi-stage build. No Docker engine runs on the project's CI machine, so
# scripts/docker-equivalent.sh reads this file and replays it without Docker: it copies exactly the COPY
# paths of the build stage into an empty directory, runs the RUN line's build there, starts the binary
# with this file's ENV and CMD, and runs the HEALTHCHECK command against it.

# ---- build: the official Swift 6.3 image
FROM swift:6.3-bookworm AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends libsqlite3-dev libpq-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift openapi.yaml ./
COPY Sources ./Sources
COPY Benchmarks ./Benchmarks
COPY Tests ./Tests
# The Swift runtime inside the binary: built without SwiftUI reading (`hinge scenes`), whose parser libraries would
# bring the toolchain's runtime (docs/swiftui.md#toolchain).
RUN HINGE_SWIFTUI=off swift build -c release --static-swift-stdlib --product hinge \
    && cp "$(HINGE_SWIFTUI=off swift build -c release --show-bin-path)/hinge" /hinge

# ---- run: slim Debian with only what the binary links at run time (and liblz4-1, which the request log
# loads at run time to compress bodies; bookworm-slim has it already, through apt)
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends libsqlite3-0 libpq5 liblz4-1 tzdata ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin hinge \
    && mkdir -p /data && chown hinge:hinge /data
COPY --from=build /hinge /usr/local/bin/hinge
USER hinge
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8080
# Defaults only: `docker run -e HINGE_PORT=9000 …` (or any HINGE_* variable of README's configuration
# table: HINGE_DB=postgres://user@host:5432/db with PGPASSWORD for PostgreSQL) overrides them, and the health
# check follows HINGE_PORT.
ENV HINGE_HOST=0.0.0.0 HINGE_PORT=8080 HINGE_DB=/data/hinge.sqlite
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD curl -fsS "http://127.0.0.1:${HINGE_PORT}/healthz" || exit 1
ENTRYPOINT ["/usr/local/bin/hinge"]
CMD ["serve"]
