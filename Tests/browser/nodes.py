"""Real tavolod processes for the browser tests: started with their page on a free port, stopped at the end."""
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time


def control(path, request, timeout=10):
    """One request on a node's control socket (PROTOCOL.md §7); returns the result or raises."""
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(timeout)
    s.connect(path)
    s.sendall((json.dumps(request) + "\n").encode())
    data = b""
    while not data.endswith(b"\n"):
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    line = json.loads(data)
    if not line.get("ok"):
        raise RuntimeError(f"{request['op']}: {line.get('error')}")
    return line["result"]


class TavoloNode:
    def __init__(self, binary, name, root):
        self.name = name
        self.dir = os.path.join(root, name)
        os.makedirs(self.dir)
        self.sock = os.path.join(self.dir, "control.sock")
        self.binary = binary
        self.start()

    def start(self):
        """Starts the node (again, after `kill`: the same state directory, so the same id, page port and token)."""
        self.log = open(os.path.join(self.dir, "tavolod.log"), "a")
        self.proc = subprocess.Popen(
            [self.binary, "--name", self.name, "--state-dir", self.dir, "--control", self.sock, "--log-level", "info"],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while True:
            try:
                self.web = control(self.sock, {"op": "web"})
                break
            except (OSError, RuntimeError):
                if self.proc.poll() is not None or time.time() > deadline:
                    raise RuntimeError(f"tavolod {self.name} did not start (see {self.log.name})")
                time.sleep(0.2)
        self.url = self.web["url"]
        self.port = self.web["port"]
        self.token = self.url.split("token=")[1]
        self.id = control(self.sock, {"op": "status"})["id"]

    def call(self, request):
        return control(self.sock, request)

    def kill(self):
        """kill -9: the node ends with no goodbye."""
        self.proc.kill()
        self.proc.wait(10)
        self.log.close()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.log.close()


class Cluster:
    """Nodes with names unique to this run, so other tavolod processes on the machine are not confused with them."""

    def __init__(self, binary, count):
        self.root = tempfile.mkdtemp(prefix="tavolo-browser-")
        tag = f"{os.getpid() % 100000}"
        self.nodes = []
        try:
            for i in range(count):
                self.nodes.append(TavoloNode(binary, f"web{chr(97 + i)}{tag}", self.root))
        except Exception:
            self.stop()
            raise

    def wait_connected(self, timeout=60):
        deadline = time.time() + timeout
        names = {n.name for n in self.nodes}
        while time.time() < deadline:
            ok = True
            for n in self.nodes:
                peers = {p["name"] for p in n.call({"op": "peers"}) if p["state"] == "connected"}
                if not (names - {n.name}) <= peers:
                    ok = False
            if ok:
                return
            time.sleep(0.3)
        raise AssertionError("the nodes did not connect to each other")

    def kill(self):
        """kill -9: the node ends with no goodbye."""
        self.proc.kill()
        self.proc.wait(10)
        self.log.close()

    def stop(self):
        for n in self.nodes:
            n.stop()

    def cleanup(self):
        shutil.rmtree(self.root, ignore_errors=True)
