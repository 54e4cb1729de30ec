stack := []int{}
for i := 1; i <= 3; i++ {
	stack = append(stack, i)
}
for len(stack) > 0 {
	n := len(stack) - 1
	fmt.Print(stack[n], " ")
	stack = stack[:n]
}
fmt.Println()
queue := []string{"a", "b", "c"}
for len(queue) > 0 {
	front := queue[0]
	queue = queue[1:]
	fmt.Print(front, " ")
}
fmt.Println()
