"""What bench/load.py and bench/growth.py share: a demo store, servers, wrk, worker memory."""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
WORK = Path(os.environ.get("BENCH_WORK", "/tmp/sports-bench"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def env_for(url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "SPORTS_KEY_SECRET")}
    env.update({"DATABASE_URL": url, **extra})
    return env


def cli(url: str, *args: str) -> str:
    done = subprocess.run([PY, "-m", "server", *args], cwd=ROOT, env=env_for(url),
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"server {' '.join(args)} failed: {done.stderr[-1500:]}")
    return done.stdout


def demo_store(path: Path, fresh: bool = False) -> str:
    """The small demo store (every level), built once and reused unless ``fresh``."""
    url = f"sqlite:///{path}"
    if fresh or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        for suffix in ("", "-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
        print(f"building the small demo store at {path} ...", file=sys.stderr, flush=True)
        cli(url, "demo", "--size", "small")
    return url


class Proc:
    """A server process in its own process group, stopped by ``stop``."""

    def __init__(self, args: list[str], env: dict[str, str], probe: str, log: Path,
                 cwd: Path = ROOT) -> None:
        with log.open("wb") as out:
            self.process = subprocess.Popen(args, cwd=cwd, env=env, stdout=out,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        self.log = log
        deadline = time.monotonic() + 60
        while True:
            if self.process.poll() is not None:
                raise SystemExit(f"server exited: {log.read_text()[-2000:]}")
            try:
                httpx.get(probe, timeout=2)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise SystemExit(f"server did not start: {' '.join(args)}") from None
                time.sleep(0.1)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(5)


def serve(url: str, port: int, workers: int, log: Path, *flags: str, cwd: Path = ROOT,
          **env: str) -> Proc:
    """``python -m server serve`` from ``cwd``'s code (an earlier commit's, for --against)."""
    return Proc([PY, "-m", "server", "serve", "--host", "127.0.0.1", "--port", str(port),
                 "--workers", str(workers), "--no-scheduler", *flags], env_for(url, **env),
                f"http://127.0.0.1:{port}/health", log, cwd)


def worker_pids(proc: Proc) -> list[int]:
    """The serving processes: the parent and its children, minus helper processes that hold no
    socket (multiprocessing's resource tracker)."""
    pids = [proc.process.pid]
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == proc.process.pid:
                pids.append(int(entry))
    out = []
    for pid in pids:
        try:
            fds = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
        except OSError:
            continue
        if any(f.startswith("socket:") for f in fds):
            out.append(pid)
    children = [p for p in out if p != proc.process.pid]
    return children or out  # with --workers N the children serve; with 1 the parent does


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


_UNIT = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def wrk(url: str, seconds: int, connections: int = 32, script: Path | None = None,
        threads: int = 2) -> dict[str, float]:
    """One wrk run; requests/s, latency p50/p90/p99 in ms, non-2xx/3xx and socket errors."""
    cmd = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency",
           "--timeout", "5s"]
    if script is not None:
        cmd += ["-s", str(script)]
    out = subprocess.run(cmd + [url], capture_output=True, text=True, check=True).stdout

    def pct(p: str) -> float:
        m = re.search(rf"\s{p}%\s+([\d.]+)(us|ms|s)\b", out)
        if not m:
            raise SystemExit(f"cannot read wrk output:\n{out}")
        return float(m[1]) * _UNIT[m[2]]

    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    sock = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    total = re.search(r"(\d+) requests in", out)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1]),  # type: ignore[index]
            "p50": pct("50"), "p90": pct("90"), "p99": pct("99"),
            "requests": float(total[1]) if total else 0.0,
            "non2xx": float(non2xx[1]) if non2xx else 0.0,
            "socket_errors": float(sum(int(x) for x in sock.groups())) if sock else 0.0}


def random_paths_script(paths: list[str], path: Path) -> Path:
    """A wrk Lua script choosing a random path from a file for every request."""
    listing = path.with_suffix(".txt")
    listing.write_text("\n".join(paths) + "\n")
    path.write_text(f"""
local paths = {{}}
for line in io.lines("{listing}") do paths[#paths + 1] = line end
math.randomseed(os.time() + tonumber(tostring({{}}):sub(8), 16) % 100000)
request = function()
  return wrk.format("GET", paths[math.random(#paths)])
end
""")
    return path


def earlier_code(rev: str, work: Path) -> Path:
    """An earlier commit's code (``git archive``) in a folder of ``work``, for ``--against``."""
    folder = work / "earlier"
    folder.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder
