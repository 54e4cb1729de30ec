a := [][]int{{1, 2}, {3, 4}}
b := [][]int{{5, 6}, {7, 8}}
c := make([][]int, 2)
for i := range c {
	c[i] = make([]int, 2)
	for j := 0; j < 2; j++ {
		for k := 0; k < 2; k++ {
			c[i][j] += a[i][k] * b[k][j]
		}
	}
}
fmt.Println(c)
for _, row := range c {
	for _, v := range row {
		fmt.Printf("%4d", v)
	}
	fmt.Println()
}
