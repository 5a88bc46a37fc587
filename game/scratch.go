package game

// Scratch returns n zeroed elements of *buf, never nil (an empty list is
// [] in JSON, not null): *buf is grown when it is too short and keeps the
// memory for the next call. Engines build views in such memory: fresh for
// View, whose caller keeps the view, and reused from view to view for
// AppendViewJSON (ViewJSONAppender), whose view lives until it is written.
func Scratch[T any](buf *[]T, n int) []T {
	if cap(*buf) < n || *buf == nil {
		*buf = make([]T, n)
	}
	x := (*buf)[:n]
	clear(x)
	return x
}
