# Hinge — multi-stage build. No Docker engine runs on the project's CI machine, so .ci/run executes the
# same build and run commands (`swift build -c release --static-swift-stdlib --product hinge`, then
# `hinge serve --host 0.0.0.0 --db /data/hinge.sqlite`) directly; keep the two in step.

# ---- build: the official Swift 6.3 image
FROM swift:6.3-bookworm AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends libsqlite3-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Benchmarks ./Benchmarks
COPY Tests ./Tests
RUN swift build -c release --static-swift-stdlib --product hinge \
    && cp "$(swift build -c release --show-bin-path)/hinge" /hinge

# ---- run: slim Debian with only what the binary links at run time
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends libsqlite3-0 tzdata ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin hinge \
    && mkdir -p /data && chown hinge:hinge /data
COPY --from=build /hinge /usr/local/bin/hinge
USER hinge
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["/usr/local/bin/hinge"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8080", "--db", "/data/hinge.sqlite"]
