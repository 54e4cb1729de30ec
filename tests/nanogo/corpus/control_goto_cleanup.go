package main

import "fmt"

func find(grid [][]int, target int) (int, int, bool) {
	for i, row := range grid {
		for j, v := range row {
			if v == target {
				return i, j, true
			}
		}
	}
	return -1, -1, false
}

func main() {
	grid := [][]int{{1, 2}, {3, 4}}
	i, j, ok := find(grid, 4)
	if !ok {
		goto notFound
	}
	fmt.Println("found", i, j)
	goto end
notFound:
	fmt.Println("not found")
end:
	fmt.Println("end")
	x := 0
again:
	x += 3
	if x < 10 {
		goto again
	}
	fmt.Println(x)
}
