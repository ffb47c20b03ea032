# Hinge — multi-stage build. No Docker engine runs on the project's CI machine, so
# scripts/docker-equivalent.sh reads this file and replays it without Docker: it copies exactly the COPY
# paths of the build stage into an empty directory, runs the RUN line's build there, starts the binary
# with this file's ENV and CMD and only the libraries it ships, and runs the HEALTHCHECK command against it.

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
# Built the default way, SwiftUI reading included; the toolchain's libraries the binary loads (the Swift runtime
# and the parser's: docs/swiftui.md#toolchain) go beside it in /opt/hinge, where its RUNPATH ($ORIGIN) finds them.
RUN swift build -c release --product hinge \
    && mkdir -p /opt/hinge \
    && cp "$(swift build -c release --show-bin-path)/hinge" /opt/hinge/hinge \
    && ldd /opt/hinge/hinge | awk '$3 ~ /\/lib\/swift\// {print $3}' | xargs cp -t /opt/hinge/

# ---- run: slim Debian with only what the binary and its Swift libraries link at run time (libstdc++6 for the Swift
# runtime; liblz4-1, which the request log loads at run time to compress bodies)
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends libsqlite3-0 libpq5 liblz4-1 libstdc++6 tzdata ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin hinge \
    && mkdir -p /data && chown hinge:hinge /data
COPY --from=build /opt/hinge /opt/hinge
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
ENTRYPOINT ["/opt/hinge/hinge"]
CMD ["serve"]
