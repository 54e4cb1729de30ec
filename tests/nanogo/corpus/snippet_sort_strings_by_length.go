words := []string{"banana", "fig", "apple", "kiwi", "cherry", "date"}
sort.Slice(words, func(i, j int) bool {
	if len(words[i]) == len(words[j]) {
		return words[i] < words[j]
	}
	return len(words[i]) < len(words[j])
})
fmt.Println(words)
nums := []int{42, -3, 17, 0, 8}
sort.Sort(sort.Reverse(sort.IntSlice(nums)))
fmt.Println(nums)
sort.Ints(nums)
idx := sort.SearchInts(nums, 17)
fmt.Println(nums, idx)
