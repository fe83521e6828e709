"""One client address for lockouts, rate limits, corrections and logs: X-Forwarded-For counts
only from a trusted proxy, read from the right past the trusted hops."""

import pytest
from django.test import RequestFactory

from infra.client import client_ip
from tests.factories import make_axis

CLIENT = "203.0.113.9"


def ip(settings, *, peer, forwarded=None, trusted=()):
    settings.TRUSTED_PROXIES = list(trusted)
    headers = {"X-Forwarded-For": forwarded} if forwarded is not None else {}
    return client_ip(RequestFactory().get("/", REMOTE_ADDR=peer, headers=headers))


def test_with_no_proxy_configured_a_forwarded_address_is_ignored(settings):
    assert settings.TRUSTED_PROXIES == []
    assert ip(settings, peer=CLIENT, forwarded="10.0.0.1") == CLIENT


def test_a_forged_forwarded_address_from_an_untrusted_peer_is_ignored(settings):
    assert ip(settings, peer=CLIENT, forwarded="192.0.2.1", trusted=["127.0.0.1"]) == CLIENT


def test_behind_nginx_the_hop_it_appended_is_the_client(settings):
    assert ip(settings, peer="127.0.0.1", forwarded=CLIENT, trusted=["127.0.0.1"]) == CLIENT


def test_the_right_most_untrusted_hop_is_the_client_and_what_it_claimed_is_ignored(settings):
    forwarded = f"6.6.6.6, 192.0.2.1, {CLIENT}, 10.1.2.3"  # forged, forged, client, load balancer
    assert ip(settings, peer="127.0.0.1", forwarded=forwarded, trusted=["127.0.0.1", "10.0.0.0/8"]) == CLIENT


def test_a_cloud_load_balancer_is_trusted_by_its_cidr(settings):
    assert ip(settings, peer="10.20.30.40", forwarded=f"6.6.6.6, {CLIENT}", trusted=["10.0.0.0/8"]) == CLIENT


def test_a_hop_that_is_not_an_address_is_never_taken_for_the_client(settings):
    assert ip(settings, peer="127.0.0.1", forwarded="not-an-address", trusted=["127.0.0.1"]) == "127.0.0.1"
    assert ip(settings, peer="127.0.0.1", forwarded="", trusted=["127.0.0.1"]) == "127.0.0.1"


def test_ports_and_brackets_added_by_a_load_balancer_are_dropped(settings):
    trusted = ["10.0.0.0/8"]
    assert ip(settings, peer="10.0.0.2", forwarded=f"{CLIENT}:51234", trusted=trusted) == CLIENT
    assert ip(settings, peer="10.0.0.2", forwarded="[2001:db8::7]:443", trusted=trusted) == "2001:db8::7"


def test_an_ipv4_client_seen_over_ipv6_is_one_address(settings):
    assert ip(settings, peer=f"::ffff:{CLIENT}") == CLIENT


def test_a_trusted_proxy_setting_that_is_not_an_address_stops_the_site(tmp_path):
    import os
    import subprocess
    import sys

    environment = {**os.environ, "DEBUG": "1", "SECRET_KEY": "", "TRUSTED_PROXIES": "127.0.0.1, nginx"}
    result = subprocess.run(
        [sys.executable, "-c", "import chipsite.settings"], env=environment, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "TRUSTED_PROXIES: 'nginx' is not an address or a CIDR." in result.stderr


@pytest.mark.django_db
class TestApiRateLimit:
    @pytest.fixture(autouse=True)
    def axis(self):
        make_axis(name="Performance", slug="performance")

    def test_a_new_forwarded_address_per_request_does_not_escape_the_limit(self, client, settings):
        settings.API_RATE_LIMIT = 3
        answers = [
            client.get("/api/v1/axes/", headers={"X-Forwarded-For": f"10.0.0.{n}"}).status_code
            for n in range(4)
        ]
        assert answers == [200, 200, 200, 429]

    def test_behind_a_trusted_proxy_each_client_has_its_own_limit(self, client, settings):
        settings.API_RATE_LIMIT = 2
        settings.TRUSTED_PROXIES = ["127.0.0.1"]

        def get(forwarded):
            return client.get(
                "/api/v1/axes/", REMOTE_ADDR="127.0.0.1", headers={"X-Forwarded-For": forwarded}
            )

        assert [get(f"6.6.6.{n}, {CLIENT}").status_code for n in range(3)] == [200, 200, 429]
        assert get("198.51.100.4").status_code == 200
