package main

import "fmt"

func main() {
	rows, cols := 3, 4
	grid := make([][]int, rows)
	for i := range grid {
		grid[i] = make([]int, cols)
		for j := range grid[i] {
			grid[i][j] = i*cols + j
		}
	}
	for _, row := range grid {
		fmt.Println(row)
	}
	fmt.Println(grid)
	tri := [][]int{}
	for i := 0; i < 5; i++ {
		row := make([]int, i+1)
		row[0], row[i] = 1, 1
		for j := 1; j < i; j++ {
			row[j] = tri[i-1][j-1] + tri[i-1][j]
		}
		tri = append(tri, row)
	}
	fmt.Println(tri)
	jag := [][]string{{"a"}, {"b", "c"}, {}}
	fmt.Println(jag, len(jag[2]))
}
