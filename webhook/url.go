package webhook

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"
)

// Where hooks may send. A hook is an HTTP request the daemon makes on a
// key's behalf, so a key could aim it at what only the daemon's host can
// reach. Hooks may use http and https only, never carry credentials in
// the URL, and never reach link-local addresses (cloud metadata services
// live there: 169.254.169.254, fd00:ec2::254), multicast or unspecified
// addresses. Loopback and private networks are allowed on purpose:
// operators run receivers on the daemon's host and inside their network.
// The address is checked when the connection is made, after DNS, so a
// name that resolves to a forbidden address later is refused too; proxies
// from the environment are not used, since the check would then see only
// the proxy.

// ErrForbiddenURL reports a hook URL or address hooks may not use.
var ErrForbiddenURL = errors.New("webhook: forbidden URL")

// CheckURL reports what makes raw unfit for a hook.
func CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrForbiddenURL, err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%w: scheme %q (http or https only)", ErrForbiddenURL, u.Scheme)
	case u.Host == "" || u.Hostname() == "":
		return fmt.Errorf("%w: no host", ErrForbiddenURL)
	case u.User != nil:
		return fmt.Errorf("%w: credentials in the URL (receivers check the signature instead)", ErrForbiddenURL)
	}
	if ip, err := netip.ParseAddr(u.Hostname()); err == nil {
		if err := checkAddr(ip); err != nil {
			return err
		}
	}
	return nil
}

// metadataAddrs are cloud metadata services outside link-local ranges.
var metadataAddrs = []netip.Addr{
	netip.MustParseAddr("fd00:ec2::254"),   // AWS over IPv6
	netip.MustParseAddr("100.100.100.200"), // Alibaba Cloud
}

func checkAddr(ip netip.Addr) error {
	ip = ip.Unmap()
	switch {
	case ip.IsLinkLocalUnicast(), ip.IsLinkLocalMulticast(), ip.IsInterfaceLocalMulticast(), ip.IsMulticast(), ip.IsUnspecified():
		return fmt.Errorf("%w: address %s (link-local, multicast or unspecified)", ErrForbiddenURL, ip)
	}
	for _, m := range metadataAddrs {
		if ip == m {
			return fmt.Errorf("%w: address %s (a metadata service)", ErrForbiddenURL, ip)
		}
	}
	return nil
}

// newClient returns the HTTP client deliveries use: addresses checked at
// connect time, no proxy, no redirects (a 3xx is a failed attempt, not a
// way around the checks).
func newClient() *http.Client {
	dialer := &net.Dialer{
		Timeout: 10 * time.Second,
		Control: func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("%w: %v", ErrForbiddenURL, err)
			}
			return checkAddr(ap.Addr())
		},
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		return dialer.DialContext(ctx, network, addr)
	}
	tr.MaxIdleConnsPerHost = 4
	return &http.Client{
		Transport:     tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
