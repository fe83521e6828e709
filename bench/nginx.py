"""nginx in front of an export folder and a Django upstream, for the benchmark and the tests.

It installs nothing: it uses Debian's ``/usr/sbin/nginx`` (``apt-get install nginx``) and never
the package's own service. Each ``Nginx`` is a process of its own on a port of its own, run in
the foreground (``daemon off``) under this process, with every file it writes (pid, error log,
request-body and proxy buffers, the filled-in config) in a temporary folder, so it runs without
root and beside any other nginx on the machine::

    with Nginx(export_root=path, upstream="127.0.0.1:8000") as nginx:
        httpx.get(nginx.url + "/vendors/aws-trainium/")

The server block is the deployment's own, ``infra/nginx/chipsite.conf.template``; only the
``http {}`` around it (paths, one or more workers, no access log) is the benchmark's.
"""

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NGINX = Path("/usr/sbin/nginx")
TEMPLATE = ROOT / "infra" / "nginx" / "chipsite.conf.template"
MIME_TYPES = Path("/etc/nginx/mime.types")
PLACEHOLDERS = ("CHIPSITE_LISTEN", "CHIPSITE_SERVER_NAME", "CHIPSITE_EXPORT_ROOT", "CHIPSITE_UPSTREAM")

MAIN_CONFIG = """\
daemon off;
worker_processes {workers};
{user}pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;

events {{
    worker_connections 1024;
}}

http {{
    {mime_types}
    default_type application/octet-stream;
    access_log off;
    sendfile on;
    tcp_nopush on;
    client_body_temp_path {prefix}/client_body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;

    include {prefix}/chipsite.conf;
}}
"""


def available():
    return NGINX.exists()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def site_config(*, listen, export_root, upstream, server_name="_"):
    """The template with its placeholders filled in, and nothing else changed."""
    text = TEMPLATE.read_text()
    values = {
        "CHIPSITE_LISTEN": listen,
        "CHIPSITE_SERVER_NAME": server_name,
        "CHIPSITE_EXPORT_ROOT": str(export_root),
        "CHIPSITE_UPSTREAM": upstream,
    }
    for name in PLACEHOLDERS:
        text = text.replace("${" + name + "}", values[name])
    return text


class Nginx:
    """nginx serving ``export_root`` on 127.0.0.1:``port``, everything else to ``upstream``
    (``host:port``). Started by the constructor, which returns once nginx answers."""

    def __init__(self, *, export_root, upstream, port=None, workers=1, timeout=10):
        if not available():
            raise FileNotFoundError(f"No nginx at {NGINX} (apt-get install nginx)")
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.prefix = Path(tempfile.mkdtemp(prefix="chipsite-nginx-"))
        site = site_config(
            listen=f"127.0.0.1:{self.port}", export_root=Path(export_root).resolve(), upstream=upstream
        )
        (self.prefix / "chipsite.conf").write_text(site)
        # Run as root (a container, CI), the master would hand the workers to "nobody", who may
        # not read a private temporary folder; keep them as the user who started it.
        user = "user root;\n" if os.geteuid() == 0 else ""
        (self.prefix / "nginx.conf").write_text(
            MAIN_CONFIG.format(
                workers=workers,
                user=user,
                prefix=self.prefix,
                mime_types=f"include {MIME_TYPES};" if MIME_TYPES.exists() else "",
            )
        )
        # -e: the error log before the config is read, else the package's /var/log/nginx/error.log.
        command = [str(NGINX), "-p", str(self.prefix), "-c", str(self.prefix / "nginx.conf")]
        command += ["-e", str(self.prefix / "error.log")]
        check = subprocess.run([*command, "-t"], capture_output=True, text=True)
        if check.returncode != 0:
            raise RuntimeError(f"nginx refused the config:\n{check.stderr}")
        self.process = subprocess.Popen(command)
        self._wait(timeout)

    def _wait(self, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx stopped at start:\n{self.error_log()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as connection:
                    connection.sendall(b"HEAD /.nginx-ready HTTP/1.0\r\n\r\n")  # a dot-path: nginx's own 404
                    if connection.recv(12).startswith(b"HTTP/1."):
                        return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"nginx did not answer on port {self.port} within {timeout} s")

    def error_log(self):
        path = self.prefix / "error.log"
        return path.read_text() if path.exists() else ""

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()  # SIGTERM: nginx's fast shutdown
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.prefix, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
