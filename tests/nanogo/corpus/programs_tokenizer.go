package main

import (
	"fmt"
	"strings"
	"unicode"
)

type Token struct {
	Kind  string
	Value string
}

func tokenize(src string) ([]Token, error) {
	var toks []Token
	rs := []rune(src)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
		case unicode.IsDigit(r):
			j := i
			for j < len(rs) && (unicode.IsDigit(rs[j]) || rs[j] == '.') {
				j++
			}
			toks = append(toks, Token{"NUM", string(rs[i:j])})
			i = j
		case unicode.IsLetter(r):
			j := i
			for j < len(rs) && unicode.IsLetter(rs[j]) {
				j++
			}
			toks = append(toks, Token{"IDENT", string(rs[i:j])})
			i = j
		case strings.ContainsRune("+-*/()=", r):
			toks = append(toks, Token{"OP", string(r)})
			i++
		default:
			return toks, fmt.Errorf("unexpected %q at %d", r, i)
		}
	}
	return toks, nil
}

func main() {
	toks, err := tokenize("x = 3.5 * (y + 42)")
	fmt.Println(toks, err)
	for _, t := range toks {
		fmt.Printf("%-5s %s\n", t.Kind, t.Value)
	}
	_, err = tokenize("a $ b")
	fmt.Println(err)
}
