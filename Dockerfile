# zkfleet, CPU-only: one image for every node role (scheduler, synth, prover on the CPU backend)
# and the client commands. GPU provers: deploy/Dockerfile.cuda. How to build, run and test it:
# deploy/README.md ("Image"); deploy/test-image builds it and runs `zkfleet demo` inside.
#
#   docker build -t zkfleet:dev .        (or: buildah bud --pull=never -t localhost/zkfleet:dev .)
#   docker run --rm zkfleet:dev demo /usr/share/zkfleet/fixtures
#   docker run ... zkfleet:dev node --config /etc/zkfleet/cluster.yaml --node synth-1

# --- builder: Debian's packages (scripts/deps), the zkfleet target alone, Release, no CUDA ------
FROM debian:12 AS builder
ARG DEBIAN_FRONTEND=noninteractive
# scripts/deps's build packages, less the test and tooling ones (doctest, clang-format, ccache,
# node/npm: BUILD_TESTING is off here). libsqlite3-dev: the scheduler's journal; gRPC and
# protobuf: Curio's cuzk API (grpcapi/, its code generated at build time).
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends \
      build-essential cmake ninja-build libgmp-dev libcaf-dev libboost-dev libyaml-cpp-dev \
      nlohmann-json3-dev libspdlog-dev libcli11-dev libssl-dev libsqlite3-dev \
      libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DZK_CUDA=OFF -DBUILD_TESTING=OFF \
 && cmake --build build --target zkfleet \
 && strip build/zkfleet \
 && mkdir -p /out && cp build/zkfleet /out/zkfleet
# The runtime packages are the ones that own the shared libraries the binary loads (ldd, then
# dpkg -S on <multiarch dir>/<soname>: Debian 12's merged /usr makes ldd's paths unknown to dpkg),
# so the runtime stage installs exactly what this build links, whatever it links next.
RUN set -e; for lib in $(ldd /out/zkfleet | awk '/=> \// { print $3 }'); do \
      dir=${lib%/*}; dpkg -S "*/${dir##*/}/${lib##*/}" | cut -d: -f1; \
    done | sort -u > /out/runtime-packages \
 && test -s /out/runtime-packages && echo "runtime packages: $(tr '\n' ' ' < /out/runtime-packages)"

# --- runtime: the binary, its libraries, curl for the health check, a user of its own ----------
FROM debian:12
ARG DEBIAN_FRONTEND=noninteractive
COPY --from=builder /out/runtime-packages /usr/share/zkfleet/runtime-packages
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends curl $(cat /usr/share/zkfleet/runtime-packages) \
 && apt-get clean && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --user-group --home-dir /var/lib/zkfleet --create-home \
      --shell /usr/sbin/nologin zkfleet \
 && mkdir -p /etc/zkfleet/certs /srv/zkfleet/inputs /srv/zkfleet/keys \
 && chown zkfleet:zkfleet /srv/zkfleet/inputs /srv/zkfleet/keys
COPY --from=builder /out/zkfleet /usr/local/bin/zkfleet
# The bundled circom fixtures (4 MiB): `zkfleet demo /usr/share/zkfleet/fixtures` proves both
# curves and both buffer shapes, and a cluster can prove them without other files.
COPY tests/fixtures /usr/share/zkfleet/fixtures
RUN ldd /usr/local/bin/zkfleet | { ! grep 'not found'; } && zkfleet --help >/dev/null
# Native circuits' keys (circuits.*.key_dir default) under the user's cache, on a volume.
ENV XDG_CACHE_HOME=/var/lib/zkfleet/cache
WORKDIR /var/lib/zkfleet
USER 10001:10001
# The scheduler's HTTP server (scheduler.http; HTTPS with security.certs_dir): /healthz answers
# 200 while the process is up, without authentication. Nodes without the scheduler role serve no
# HTTP: their deployments turn this check off (deploy/compose.yaml) or set ZKFLEET_HEALTHZ.
ENV ZKFLEET_HEALTHZ=https://127.0.0.1:9410/healthz
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
  CMD curl -fsSk --max-time 4 -o /dev/null "$ZKFLEET_HEALTHZ" || exit 1
ENTRYPOINT ["zkfleet"]
CMD ["--help"]
