package main

import "fmt"

func main() {
outer:
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			if j == 2 {
				continue outer
			}
			if i == 2 {
				break outer
			}
			fmt.Println(i, j)
		}
	}
	fmt.Println("done")
	grid := [][]int{{1, 2, 3}, {4, 42, 6}, {7, 8, 9}}
	found := false
search:
	for r, row := range grid {
		for c, v := range row {
			if v == 42 {
				fmt.Println("found at", r, c)
				found = true
				break search
			}
		}
	}
	fmt.Println(found)
loop:
	for i := 0; ; i++ {
		switch {
		case i == 5:
			break loop
		case i%2 == 0:
			continue loop
		}
		fmt.Print(i, " ")
	}
	fmt.Println()
}
