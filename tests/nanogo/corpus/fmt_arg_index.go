package main

import "fmt"

func main() {
	fmt.Printf("%[1]d %[1]x %[1]o %[1]b\n", 42)
	fmt.Printf("%[2]s %[1]s\n", "world", "hello")
	fmt.Printf("%s %[1]q %v\n", "x", 3)
	fmt.Printf("%[3]v %v\n", 1, 2, 3)
	fmt.Printf("%[5]d\n", 1)
	fmt.Printf("%6.2[1]f|%-6[1]v|\n", 3.14159)
}
