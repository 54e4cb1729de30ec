package main

import (
	"fmt"
	"strings"
)

func caesar(s string, shift int) string {
	var sb strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z':
			sb.WriteRune('a' + (r-'a'+rune(shift)+26)%26)
		case r >= 'A' && r <= 'Z':
			sb.WriteRune('A' + (r-'A'+rune(shift)+26)%26)
		default:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

func main() {
	enc := caesar("Attack at Dawn!", 3)
	fmt.Println(enc)
	fmt.Println(caesar(enc, -3))
}
