matrix := [][]int{{1, 2, 3}, {4, -5, 6}, {7, 8, 9}}
found := false
for i, row := range matrix {
	for j, v := range row {
		if v < 0 {
			fmt.Printf("negative at (%d,%d): %d\n", i, j, v)
			found = true
			break
		}
	}
	if found {
		break
	}
}
sum := 0
outer:
for _, row := range matrix {
	for _, v := range row {
		if v > 7 {
			break outer
		}
		if v < 0 {
			continue outer
		}
		sum += v
	}
}
fmt.Println("sum:", sum)
