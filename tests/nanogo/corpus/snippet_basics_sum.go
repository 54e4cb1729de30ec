nums := []int{3, 7, 1, 9, 4}
sum := 0
for _, n := range nums {
	sum += n
}
fmt.Println("Sum:", sum)
fmt.Println("Average:", float64(sum)/float64(len(nums)))
