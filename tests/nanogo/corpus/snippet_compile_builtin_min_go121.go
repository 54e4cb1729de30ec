values := []int{4, 2, 9}
smallest := values[0]
for _, v := range values[1:] {
	smallest = min(smallest, v)
}
fmt.Println(smallest)
