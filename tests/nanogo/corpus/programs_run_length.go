package main

import (
	"fmt"
	"strconv"
	"strings"
)

func encode(s string) string {
	var sb strings.Builder
	runes := []rune(s)
	for i := 0; i < len(runes); {
		j := i
		for j < len(runes) && runes[j] == runes[i] {
			j++
		}
		sb.WriteString(strconv.Itoa(j - i))
		sb.WriteRune(runes[i])
		i = j
	}
	return sb.String()
}

func decode(s string) string {
	var sb strings.Builder
	n := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n = n*10 + int(r-'0')
			continue
		}
		sb.WriteString(strings.Repeat(string(r), n))
		n = 0
	}
	return sb.String()
}

func main() {
	for _, s := range []string{"aaabccdddd", "abc", "", "zzzzzzzzzzzz", "ééé"} {
		e := encode(s)
		fmt.Printf("%q -> %q -> %q\n", s, e, decode(e))
	}
}
