package main

import (
	"fmt"
	"strings"
)

func main() {
	n := 3
	fmt.Println(strings.Repeat("ab", n))
	n -= 5
	fmt.Println(strings.Repeat("ab", n))
}
