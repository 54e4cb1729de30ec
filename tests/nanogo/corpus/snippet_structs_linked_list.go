type Node struct {
	Val  int
	Next *Node
}

var head *Node
for i := 5; i >= 1; i-- {
	head = &Node{Val: i, Next: head}
}
for n := head; n != nil; n = n.Next {
	fmt.Print(n.Val)
	if n.Next != nil {
		fmt.Print(" -> ")
	}
}
fmt.Println()
var prev *Node
for cur := head; cur != nil; {
	next := cur.Next
	cur.Next = prev
	prev, cur = cur, next
}
fmt.Println(prev.Val, prev.Next.Val)
