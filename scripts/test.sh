#!/usr/bin/env bash
# Runs every test of the repository. Installs what the tests need first, so it
# works on a fresh Debian machine with Go.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the tests use: real Jupyter clients for the kernel tests
# and notebooks, ipykernel as the start-up peer, mlir-opt to validate the
# generic form of every emitted PTO module, and Jupyter Notebook with headless
# Chromium for the browser test; python3 parses every printed program in the
# goldens (printer tests), and pytest collects a test file whose ids the
# reader must give (pyfront), and with torch runs the value oracles'
# plugin (pyfront's TestOracleSelf; with a PyPTO checkout named, upstream's
# own tests through it); gcc for cgo (the Python grammar of pyfront);
# OpenMPI and pkg-config for the MPI device (tests under the build tag mpi).
apt_packages=(python3 python3-pytest python3-torch gcc python3-jupyter-kernel-test jupyter-client jupyter-nbconvert python3-nbclient python3-ipykernel mlir-16-tools jupyter-notebook chromium libopenmpi-dev openmpi-bin pkg-config)
missing=()
for p in "${apt_packages[@]}"; do
	dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq "${missing[@]}"
fi

go mod download

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' | grep -v '/testdata/'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

echo "== go vet"
go vet ./...

echo "== go test"
# Tests that produce artifacts (the browser test's screenshot) write them here.
export PTOREPL_TEST_ARTIFACTS="${PTOREPL_TEST_ARTIFACTS:-$PWD/test-artifacts}"
mkdir -p "$PTOREPL_TEST_ARTIFACTS"
go test -count=1 ./...

echo "== go test -race (the simulator's concurrency)"
# Ranks, cores, the blocks of a syncall launch and the members of a Group
# with pipes run on goroutines that
# share rank state; the race detector checks the executor and the
# scheduler that hand it between them.
go test -count=1 -race ./runtime
go test -count=1 -race ./pyfront -run 'TestSyncall|TestSplitAiv|TestCrossCoreSync|TestCrossCorePipes|TestPipeMisuse|TestDispatchPredicate|TestNoDep|TestSplitLanes'

echo "== go test -tags mpi (the MPI device)"
# The MPI device and the front-ends that reach it are only built with the
# tag: vet them, and run their tests (the differential corpus against the
# simulator, the fault tests) with mpirun as root and oversubscribed.
go vet -tags mpi ./mpidev ./cmd/ptorepl ./pyfront
go test -count=1 -tags mpi ./mpidev
go test -count=1 -tags mpi ./cmd/ptorepl -run 'TestRunOnMPI'

echo "== fuzz (short)"
# A count budget, not a duration: duration budgets trip a Go fuzz-coordinator
# race at the deadline (golang/go#75804) and fail with no crasher written.
if grep -q 'func FuzzUnmarshalProgram' ir/*_test.go 2>/dev/null; then
	# Minimising a new interesting input may otherwise take its default
	# minute (a large serialized program): bound it by count too.
	go test ./ir -run '^$' -fuzz '^FuzzUnmarshalProgram$' -fuzztime 100000x -fuzzminimizetime 2000x
fi
# The PyPTO Python reader: no panic, no hang, no reader bug on any input.
go test ./pyfront -run '^$' -fuzz '^FuzzParse$' -fuzztime 5000x
# The cell splitter and transformation: no panic, and a valid function body is
# never rejected.
go test ./interp -run '^$' -fuzz '^FuzzCellTransform$' -fuzztime 20000x
