package main

import (
	"fmt"
	"strings"
)

func main() {
	var sb strings.Builder
	for i := 0; i < 5; i++ {
		sb.WriteString("item")
		sb.WriteByte(' ')
		fmt.Fprintf(&sb, "%d;", i)
	}
	sb.WriteRune('✓')
	fmt.Println(sb.String())
	fmt.Println(sb.Len())
	sb.Reset()
	sb.WriteString("fresh")
	fmt.Println(sb.String(), sb.Len())
	b := &strings.Builder{}
	b.WriteString(strings.Repeat("=", 10))
	fmt.Println(b.String())
}
