package main

import "fmt"

func kind(n int) string {
	switch {
	case n < 0:
		return "neg"
	case n > 0:
		return "pos"
	}
}

func main() {
	fmt.Println(kind(1))
}
