// The go contestant's module (no dependencies). `go` is the language version it is
// written for; `toolchain` the release that builds it, which any go from 1.21 fetches from
// the Go module proxy (contestant.toml). A variant (`-c go@1.22`) builds against a go.mod
// of its own release's instead (taskbench's contestant/variant/go.rs).
module taskbench/contestants/go

go 1.27

toolchain go1.27.4
