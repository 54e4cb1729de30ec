nums := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
var evens []int
for _, n := range nums {
	if n%2 == 0 {
		evens = append(evens, n)
	}
}
squares := make([]int, len(evens))
for i, e := range evens {
	squares[i] = e * e
}
fmt.Println("evens:", evens)
fmt.Println("squares:", squares)
