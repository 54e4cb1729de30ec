package main

import "fmt"

func main() {
	fmt.Printf("%d\n", "hi")
	fmt.Printf("%s\n", 42)
	fmt.Printf("%d %d\n", 1)
	fmt.Printf("%d\n", 1, 2)
	fmt.Printf("no verbs\n", "extra", 3)
	fmt.Printf("%z\n", 5)
	fmt.Printf("%t\n", 1)
	fmt.Printf("%!\n")
	fmt.Printf("%")
	fmt.Println()
	fmt.Printf("%.2f\n", 3)
	fmt.Printf("%x %X\n", "z", "Z")
	fmt.Printf("%c %q\n", "str", 3.5)
	fmt.Printf("%s\n", nil)
	fmt.Printf("%d\n", []string{"a"})
	fmt.Printf("%s\n", []int{1, 2})
	s := fmt.Sprintf("%v %v", "only one")
	fmt.Println(s)
}
