# The release image of ckptlint: the static release binaries (CGO_ENABLED=0,
# .goreleaser.yaml), ckptlint and its renderer of Helm charts and
# kustomizations, ckptlint-render, side by side (ckptlint runs the renderer
# from beside its own executable), on a distroless base, which holds CA
# certificates, /etc/passwd with a nonroot user and tzdata, and no shell or
# package manager. GoReleaser builds it (dockers_v2 in .goreleaser.yaml)
# with the binaries it built as the context, one directory per platform
# (linux/amd64/ckptlint, linux/amd64/ckptlint-render, linux/arm64/...); it
# is not built from source. The -debug tags pass BASE=...:debug-nonroot,
# distroless's base with a busybox shell, for CI systems that run a script
# in the image.
# Documented in docs/releasing.md and docs/ci.md (GitLab CI, Jenkins).
ARG BASE=gcr.io/distroless/static-debian12:nonroot
FROM ${BASE}
ARG TARGETPLATFORM
COPY ${TARGETPLATFORM}/ckptlint /usr/local/bin/ckptlint
COPY ${TARGETPLATFORM}/ckptlint-render /usr/local/bin/ckptlint-render
# The repository to lint is mounted here (docker run -v "$PWD:/work").
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/ckptlint"]
CMD ["lint", "."]
