sorted := []int{}
for _, v := range []int{50, 10, 40, 20, 30, 10} {
	i := sort.SearchInts(sorted, v)
	sorted = append(sorted, 0)
	copy(sorted[i+1:], sorted[i:])
	sorted[i] = v
	fmt.Println(sorted)
}
idx := sort.Search(len(sorted), func(i int) bool { return sorted[i] >= 35 })
fmt.Println("first >= 35 at", idx, "value", sorted[idx])
