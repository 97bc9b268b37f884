package facts

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/ckptlint/ckptlint/internal/safetext"
)

// Client fetches the HTTP sources. It is the only network access ckptlint
// has: GET requests to the URLs the user named (--namenode, --jobmanager),
// with connect and total timeouts, a response size limit, TLS verified
// against the system roots plus --ca-file, no proxy from the environment,
// no redirect to another host, and no credentials (a URL with user:pass@ is
// refused). Kerberos/SPNEGO is not supported (docs/facts.md).
type Client struct {
	// ConnectTimeout bounds the TCP connect and TLS handshake; Timeout the
	// whole request including reading the body.
	ConnectTimeout time.Duration
	Timeout        time.Duration
	// MaxBytes is the largest response body accepted.
	MaxBytes int64
	// CAFile is a PEM file of extra trusted CA certificates ("" for none).
	CAFile string

	http *http.Client
}

// Defaults for Client.
const (
	DefaultConnectTimeout = 10 * time.Second
	DefaultTimeout        = 60 * time.Second
	DefaultMaxBytes       = 64 << 20
)

func (c *Client) init() error {
	if c.http != nil {
		return nil
	}
	if c.ConnectTimeout <= 0 {
		c.ConnectTimeout = DefaultConnectTimeout
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxBytes <= 0 {
		c.MaxBytes = DefaultMaxBytes
	}
	tlsConf := &tls.Config{MinVersion: tls.VersionTLS12}
	if c.CAFile != "" {
		pem, err := os.ReadFile(c.CAFile)
		if err != nil {
			return fmt.Errorf("--ca-file: %w", err)
		}
		pool, err := x509.SystemCertPool()
		if err != nil || pool == nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return fmt.Errorf("--ca-file %s: no PEM certificate in it", c.CAFile)
		}
		tlsConf.RootCAs = pool
	}
	dialer := &net.Dialer{Timeout: c.ConnectTimeout}
	tr := &http.Transport{
		Proxy:                  nil, // network only to the named host
		DialContext:            dialer.DialContext,
		TLSClientConfig:        tlsConf,
		TLSHandshakeTimeout:    c.ConnectTimeout,
		ResponseHeaderTimeout:  c.Timeout,
		MaxResponseHeaderBytes: 1 << 20,
		DisableCompression:     false,
	}
	c.http = &http.Client{
		Transport: tr,
		Timeout:   c.Timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 3 {
				return errors.New("more than 3 redirects")
			}
			first := via[0].URL
			if req.URL.Scheme != first.Scheme || req.URL.Host != first.Host {
				return fmt.Errorf("redirect to %s refused: only the host named on the command line is contacted", Redact(req.URL.String()))
			}
			return nil
		},
	}
	return nil
}

// BaseURL checks a --namenode / --jobmanager value: http or https, a host,
// no credentials, no query or fragment. It returns the URL without a
// trailing slash.
func BaseURL(flag, raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%s %s: not a URL: %v", flag, Redact(raw), errors.Unwrap(err))
	}
	if u.User != nil {
		u.User = nil
		return nil, fmt.Errorf("%s %s: credentials in the URL are refused (they would end up in logs and in .ckptlint.hcl); ckptlint facts supports no HTTP authentication, see docs/facts.md", flag, u.Redacted())
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("%s %s: the scheme must be http or https", flag, Redact(raw))
	}
	if u.Host == "" {
		return nil, fmt.Errorf("%s %s: no host", flag, Redact(raw))
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("%s %s: give the base URL without a query or fragment", flag, Redact(raw))
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// Redact removes credentials from a URL for display.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		if i := strings.LastIndex(raw, "@"); i >= 0 {
			if j := strings.Index(raw, "://"); j >= 0 && j < i {
				return raw[:j+3] + "REDACTED@" + raw[i+1:]
			}
		}
		return raw
	}
	u.User = nil
	return u.String()
}

// Get fetches base+path with a GET and returns the body. Every failure is
// an error naming the URL: connection, TLS, status other than 200, a body
// over MaxBytes, a body shorter than its Content-Length, a timeout.
func (c *Client) Get(ctx context.Context, base *url.URL, path string) ([]byte, string, error) {
	if err := c.init(); err != nil {
		return nil, "", err
	}
	u := *base
	p, q, _ := strings.Cut(path, "?")
	u.Path = base.Path + p
	u.RawQuery = q
	name := u.String()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, name, nil)
	if err != nil {
		return nil, name, fmt.Errorf("GET %s: %w", name, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, name, fmt.Errorf("GET %s: %s", name, netReason(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		snippet, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody+1))
		return nil, name, fmt.Errorf("GET %s: HTTP %s: %s", name, safetext.Text(resp.Status), clip(strings.TrimSpace(string(snippet)), maxErrorBody))
	}
	if resp.ContentLength > c.MaxBytes {
		return nil, name, fmt.Errorf("GET %s: the response is %d bytes, over the %d-byte limit", name, resp.ContentLength, c.MaxBytes)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.MaxBytes+1))
	if err != nil {
		return nil, name, fmt.Errorf("GET %s: reading the response: %s", name, netReason(err))
	}
	if int64(len(body)) > c.MaxBytes {
		return nil, name, fmt.Errorf("GET %s: the response is over the %d-byte limit", name, c.MaxBytes)
	}
	return body, name, nil
}

// maxErrorBody is how much of an error response's body an error quotes
// (clip).
const maxErrorBody = 200

// netReason words the common transport errors.
func netReason(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return "timed out (the server is slow or unreachable)"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the connection closed before the whole response arrived (truncated)"
	}
	var ce *tls.CertificateVerificationError
	if errors.As(err, &ce) {
		return fmt.Sprintf("TLS certificate not trusted (%v); pass --ca-file for a private CA", ce.Err)
	}
	return err.Error()
}
