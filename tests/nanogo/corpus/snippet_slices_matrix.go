matrix := [][]int{
	{1, 2, 3},
	{4, 5, 6},
	{7, 8, 9},
}
transposed := make([][]int, 3)
for i := range transposed {
	transposed[i] = make([]int, 3)
	for j := range transposed[i] {
		transposed[i][j] = matrix[j][i]
	}
}
fmt.Println(transposed)
diag := 0
for i := 0; i < 3; i++ {
	diag += matrix[i][i]
}
fmt.Println("trace:", diag)
