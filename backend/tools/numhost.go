package tools

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// numericIPv4 reads a host the way browsers do (the WHATWG URL standard's
// IPv4 parser): one to four numbers, each decimal, octal (a leading 0) or
// hexadecimal (0x), the last filling the bytes left — 0x7f000001,
// 2130706433, 0177.1 and 127.1 are all 127.0.0.1. ok is false for a
// host that is a name (its last part is not a number); a host that looks
// numeric but is not a valid address is an error.
func numericIPv4(host string) (ip net.IP, ok bool, err error) {
	parts := strings.Split(host, ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1] // a trailing dot
	}
	if _, numeric, _ := ipv4Part(parts[len(parts)-1]); !numeric {
		return nil, false, nil
	}
	if len(parts) > 4 {
		return nil, true, fmt.Errorf("%q is not a valid IPv4 address", host)
	}
	var nums []uint64
	for _, p := range parts {
		n, _, valid := ipv4Part(p)
		if !valid {
			return nil, true, fmt.Errorf("%q is not a valid IPv4 address", host)
		}
		nums = append(nums, n)
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return nil, true, fmt.Errorf("%q is not a valid IPv4 address", host)
	}
	addr := last
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return nil, true, fmt.Errorf("%q is not a valid IPv4 address", host)
		}
		addr |= n << (8 * (3 - i))
	}
	return net.IPv4(byte(addr>>24), byte(addr>>16), byte(addr>>8), byte(addr)), true, nil
}

// ipv4Part reads one part of a numeric host: numeric when it is digits
// (or 0x and hex digits), valid when it is also a number that fits.
func ipv4Part(p string) (n uint64, numeric, valid bool) {
	digits, base := p, 10
	switch {
	case len(p) >= 2 && (p[:2] == "0x" || p[:2] == "0X"):
		digits, base = p[2:], 16
	case len(p) >= 2 && p[0] == '0':
		digits, base = p[1:], 8
	}
	if p == "" || strings.TrimLeft(digits, "0123456789abcdefABCDEF") != "" ||
		(base != 16 && strings.TrimLeft(digits, "0123456789") != "") {
		return 0, false, false
	}
	if digits == "" {
		return 0, true, true // "0x"
	}
	n, err := strconv.ParseUint(digits, base, 64)
	return n, true, err == nil && n <= 0xFFFFFFFF
}

// canonicalHost rewrites a URL whose host is a numeric IPv4 address in
// another form to the dotted one, so that the address — not a name sent
// to DNS — is what is dialled and checked.
func canonicalHost(u *url.URL) error {
	host := u.Hostname()
	if strings.Contains(host, ":") { // IPv6
		return nil
	}
	ip, ok, err := numericIPv4(host)
	if err != nil || !ok {
		return err
	}
	if port := u.Port(); port != "" {
		u.Host = net.JoinHostPort(ip.String(), port)
	} else {
		u.Host = ip.String()
	}
	return nil
}
