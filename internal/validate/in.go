package validate

// In checks *v with check at name below the collector's location, as the
// value of an object member: In(c, "dropoff", &p.Dropoff, (*Location).check)
// reports a problem of the dropoff's zipcode at "dropoff.zipcode". A nil v
// is an optional member left out and is not checked. check is usually a
// method expression, so the call allocates nothing.
func In[T any](c *Collector, name string, v *T, check func(*T, *Collector)) {
	if v == nil {
		return
	}
	c.Push(name)
	check(v, c)
	c.Pop()
}
